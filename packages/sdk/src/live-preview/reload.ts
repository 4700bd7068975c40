import type { PreviewChangeEvent } from '@cms/core';

/** What `reloadOnPreviewChange` takes. */
export interface ReloadOnPreviewChangeOptions {
  /** The CMS server (`https://cms.example`). */
  baseUrl: string;
  /** The preview token the page was opened with. */
  token: string;
  /**
   * What to do on a saved change; default: reload the page with the new token in its `token` query
   * parameter (a server-rendered page reads the new draft with it).
   */
  onChange?(event: PreviewChangeEvent): void;
  /** The EventSource class (tests, or a polyfill); default the global one. */
  EventSource?: EventSourceClass;
}

/** What the helper uses of an EventSource (the WHATWG class fits). */
export interface EventSourceLike {
  addEventListener(type: string, listener: (event: { data?: unknown }) => void): void;
  close(): void;
}
/** A constructor of EventSourceLike. */
export type EventSourceClass = new (url: string) => EventSourceLike;

/** The page's location, as far as the reload uses it. */
interface PageLocation {
  href: string;
  replace(url: string): void;
}

/** The document id a preview token names (its claims are read, not verified: the server verifies it). */
function documentIdOf(token: string): string {
  const payload = token.split('.')[1] ?? '';
  const base64 = payload.replace(/-/g, '+').replace(/_/g, '/');
  const json = atob(base64.padEnd(Math.ceil(base64.length / 4) * 4, '='));
  const { documentId } = JSON.parse(json) as { documentId?: unknown };
  if (typeof documentId !== 'string') throw new TypeError('Not a preview token: it names no documentId.');
  return documentId;
}

/** The page's address with `token` replaced. */
function withToken(href: string, token: string): string {
  const url = new URL(href);
  url.searchParams.set('token', token);
  return url.toString();
}

/**
 * For server-rendered sites: listens to the server's preview events and reloads the page on each saved
 * change of the previewed draft (docs/live-preview.md "Server-rendered sites"). Returns a function that
 * stops listening.
 * @example
 * reloadOnPreviewChange({ baseUrl: 'https://cms.example', token: new URL(location.href).searchParams.get('token') });
 */
export function reloadOnPreviewChange(options: ReloadOnPreviewChangeOptions): () => void {
  const Source = options.EventSource ?? (globalThis as unknown as { EventSource: EventSourceClass }).EventSource;
  const base = options.baseUrl.replace(/\/+$/, '');
  const documentId = documentIdOf(options.token);
  const source = new Source(
    `${base}/api/v1/content/${encodeURIComponent(documentId)}/preview-events?token=${encodeURIComponent(options.token)}`,
  );
  source.addEventListener('change', (event) => {
    const change = JSON.parse(String(event.data)) as PreviewChangeEvent;
    if (options.onChange) options.onChange(change);
    else {
      const { location } = globalThis as unknown as { location: PageLocation };
      location.replace(withToken(location.href, change.token));
    }
  });
  // The token ran out: the stream ends; the Studio's renewed token (subscribeToPreview's onToken) starts anew.
  source.addEventListener('expired', () => source.close());
  return () => source.close();
}
