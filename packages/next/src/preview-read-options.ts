/**
 * `previewReadOptions()`: how a page should read content for this request, to spread into the SDK's
 * `content.list` and `content.get`. Draft mode off reads published content; draft mode from a plain
 * preview token reads drafts; draft mode from a release preview token reads as that release would
 * publish (`release=<id>`: its drafts for its items, published content for the rest).
 * @example
 * const read = await previewReadOptions();
 * const page = await cms.content.list({ type: 'post', ...read }, isPreviewRead(read) ? { cache: 'no-store' } : {});
 */
import { cookies, draftMode } from 'next/headers.js';
import { isReleaseId, RELEASE_PREVIEW_COOKIE } from './release-cookie.js';

/** What `previewReadOptions` answers: `draft` for published or draft reads, or `release` for a release's. */
export type PreviewReadOptions = { draft: boolean; release?: never } | { release: string; draft?: never };

/** The request's cookies as Next's `cookies()` and `NextRequest.cookies` both give them. */
export interface CookieReader {
  get(name: string): { value: string } | undefined;
}

/** Where `previewReadOptions` looks; the defaults are Next's request-scoped `draftMode()` and `cookies()`. */
export interface PreviewReadSource {
  /** Whether draft mode is on; default `(await draftMode()).isEnabled`. */
  isDraftMode?: () => boolean | Promise<boolean>;
  /** The request's cookies; default `await cookies()`. */
  cookies?: () => CookieReader | Promise<CookieReader>;
}

/** True for a draft or release read: one that must not be cached (`{ cache: 'no-store' }`). */
export function isPreviewRead(read: PreviewReadOptions): boolean {
  return read.release !== undefined || read.draft === true;
}

/**
 * The read options of this request. The release cookie counts only while draft mode is on (a visitor
 * cannot turn a release preview on with it), and a value not shaped like a release id is ignored
 * (a plain draft preview).
 */
export async function previewReadOptions(source: PreviewReadSource = {}): Promise<PreviewReadOptions> {
  const enabled = source.isDraftMode ? await source.isDraftMode() : (await draftMode()).isEnabled;
  if (!enabled) return { draft: false };
  const jar = source.cookies ? await source.cookies() : await cookies();
  const release = jar.get(RELEASE_PREVIEW_COOKIE)?.value;
  return isReleaseId(release) ? { release } : { draft: true };
}
