// One client for the site's server code. CMS_API_KEY needs content:read, and content:read:draft for
// draft mode and release previews; it never reaches the browser.
import { isPreviewRead, type PreviewReadOptions } from '@cms/next';
import { createClient } from '@cms/sdk';

const serverUrl = process.env.CMS_SERVER_URL ?? 'http://127.0.0.1:4000';

export const cms = createClient({
  baseUrl: serverUrl,
  apiKey: process.env.CMS_API_KEY,
  project: process.env.CMS_PROJECT ?? 'default',
  environment: process.env.CMS_ENVIRONMENT ?? 'production',
});

/**
 * Published reads are cached an hour and expired by tag on a webhook (each read is tagged with the
 * documents it shows, resolved authors included); preview reads are live.
 */
export function cacheFor(read: PreviewReadOptions) {
  return isPreviewRead(read) ? { cache: 'no-store' as const } : { next: { revalidate: 3600 } };
}

/**
 * The Studio's origin, the one allowed to send drafts to the live preview: CMS_STUDIO_ORIGIN, else
 * the origin of CMS_SERVER_URL (the server serves the Studio at /studio/).
 */
export function studioOrigin(): string {
  return new URL(process.env.CMS_STUDIO_ORIGIN ?? serverUrl).origin;
}
