// One client for the site's server code. CMS_API_KEY needs content:read, and content:read:draft for
// draft mode; it never reaches the browser.
import { createClient } from '@cms/sdk';

export const cms = createClient({
  baseUrl: process.env.CMS_SERVER_URL ?? 'http://127.0.0.1:4000',
  apiKey: process.env.CMS_API_KEY,
  project: process.env.CMS_PROJECT ?? 'default',
  environment: process.env.CMS_ENVIRONMENT ?? 'production',
});

/** Published reads are cached an hour and revalidated by tag on a webhook; draft mode reads live. */
export function cacheFor(draft: boolean) {
  return draft ? { cache: 'no-store' as const } : { next: { revalidate: 3600 } };
}
