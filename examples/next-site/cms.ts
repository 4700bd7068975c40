// One client for the site's server code. CMS_API_KEY needs content:read, and content:read:draft for
// draft mode and release previews; it never reaches the browser.
import { isPreviewRead, type PreviewReadOptions } from '@cms/next';
import { createClient } from '@cms/sdk';

export const cms = createClient({
  baseUrl: process.env.CMS_SERVER_URL ?? 'http://127.0.0.1:4000',
  apiKey: process.env.CMS_API_KEY,
  project: process.env.CMS_PROJECT ?? 'default',
  environment: process.env.CMS_ENVIRONMENT ?? 'production',
});

/** Published reads are cached an hour and revalidated by tag on a webhook; preview reads are live. */
export function cacheFor(read: PreviewReadOptions) {
  return isPreviewRead(read) ? { cache: 'no-store' as const } : { next: { revalidate: 3600 } };
}
