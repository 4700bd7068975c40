/**
 * The live preview's `postMessage` protocol (docs/live-preview.md): every message is an object with
 * `type: "cms:preview"` (decisions.md §8) and a `kind`. The Studio posts to the site's origin only, the
 * site to the Studio's origin only, and each side drops messages from any other origin.
 */
import type { Document } from '@cms/core';

/** The `type` of every live preview message. */
export const PREVIEW_MESSAGE_TYPE = 'cms:preview';

/** Studio -> site: the draft as the read API would answer it, on every change (saved or not). */
export interface PreviewDocumentMessage {
  type: typeof PREVIEW_MESSAGE_TYPE;
  kind: 'document';
  document: Document;
  /** Increases with every message of one Studio editor; an older one arriving late can be dropped. */
  sequence: number;
}

/** Studio -> site: a renewed preview token (before the previous one expires). */
export interface PreviewTokenMessage {
  type: typeof PREVIEW_MESSAGE_TYPE;
  kind: 'token';
  token: string;
  expiresAt: string;
}

/** Site -> Studio: the page is listening (the Studio answers with the current document). */
export interface PreviewReadyMessage {
  type: typeof PREVIEW_MESSAGE_TYPE;
  kind: 'ready';
}

/** Site -> Studio: an element marked `data-cms-field` or `data-cms-source` was clicked. */
export interface PreviewFocusMessage {
  type: typeof PREVIEW_MESSAGE_TYPE;
  kind: 'focus';
  /** The frontmatter path (`title`, `seo.description`, `tags[2]`), from `data-cms-field`. */
  field?: string;
  /** The body line (1-based), from `data-cms-source`. */
  line?: number;
}

/** What the Studio posts to the site. */
export type StudioToSiteMessage = PreviewDocumentMessage | PreviewTokenMessage;
/** What the site posts to the Studio. */
export type SiteToStudioMessage = PreviewReadyMessage | PreviewFocusMessage;
/** Any live preview message. */
export type PreviewMessage = StudioToSiteMessage | SiteToStudioMessage;

/** Is this message data a live preview message (of any kind)? */
export function isPreviewMessage(data: unknown): data is PreviewMessage {
  return (
    typeof data === 'object' &&
    data !== null &&
    (data as { type?: unknown }).type === PREVIEW_MESSAGE_TYPE &&
    typeof (data as { kind?: unknown }).kind === 'string'
  );
}

/**
 * Is `origin` one of the trusted origins? Origins are compared as the browser serialises them
 * (`https://cms.example`, default port left out), so a trailing slash or path in the setting is ignored.
 */
export function isTrustedOrigin(origin: string, trusted: string | readonly string[]): boolean {
  const list = typeof trusted === 'string' ? [trusted] : trusted;
  return list.some((entry) => {
    try {
      return new URL(entry).origin === origin;
    } catch {
      return false;
    }
  });
}
