import type { PreviewChangeEvent } from '@cms/core';
import { type PreviewWindow, subscribeToPreview } from './subscribe.js';

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
  /**
   * The Studio's origin (`https://cms.example`), or several. Given, the page also takes the tokens the
   * Studio renews (as `subscribeToPreview` does, click-to-edit included) and follows the stream with
   * each, so it keeps reloading for as long as the Studio has it open, past the first token's life.
   */
  studioOrigin?: string | readonly string[];
  /** The EventSource class (tests, or a polyfill); default the global one. */
  EventSource?: EventSourceClass;
  /** The window the Studio's tokens arrive on (tests); default the global one. */
  window?: PreviewWindow;
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

/** What the helper reads of a preview token's claims (read, not verified: the server verifies it). */
function claimsOf(token: string): { documentId: string; draftRevision: number } {
  const payload = token.split('.')[1] ?? '';
  const base64 = payload.replace(/-/g, '+').replace(/_/g, '/');
  const json = atob(base64.padEnd(Math.ceil(base64.length / 4) * 4, '='));
  const { documentId, draftRevision } = JSON.parse(json) as { documentId?: unknown; draftRevision?: unknown };
  if (typeof documentId !== 'string') throw new TypeError('Not a preview token: it names no documentId.');
  return { documentId, draftRevision: typeof draftRevision === 'number' ? draftRevision : -1 };
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
 * reloadOnPreviewChange({
 *   baseUrl: 'https://cms.example',
 *   token: new URL(location.href).searchParams.get('token'),
 *   studioOrigin: 'https://cms.example',
 * });
 */
export function reloadOnPreviewChange(options: ReloadOnPreviewChangeOptions): () => void {
  const Source = options.EventSource ?? (globalThis as unknown as { EventSource: EventSourceClass }).EventSource;
  const base = options.baseUrl.replace(/\/+$/, '');
  const first = claimsOf(options.token);
  // The newest revision handed on: while one stream takes over from another, both may tell of a save.
  let handed = first.draftRevision;
  const sources = new Set<EventSourceLike>();
  const close = (source: EventSourceLike) => {
    sources.delete(source);
    source.close();
  };

  const onSaved = (event: { data?: unknown }) => {
    const change = JSON.parse(String(event.data)) as PreviewChangeEvent;
    if (change.draftRevision <= handed) return;
    handed = change.draftRevision;
    if (options.onChange) options.onChange(change);
    else {
      const { location } = globalThis as unknown as { location: PageLocation };
      location.replace(withToken(location.href, change.token));
    }
  };
  const listen = (token: string): EventSourceLike => {
    const { documentId } = claimsOf(token);
    const source = new Source(
      `${base}/api/v1/content/${encodeURIComponent(documentId)}/preview-events?token=${encodeURIComponent(token)}`,
    );
    sources.add(source);
    source.addEventListener('change', onSaved);
    // The token ran out: the stream ends (a renewed token from the Studio opens the next one).
    source.addEventListener('expired', () => close(source));
    return source;
  };

  let token = options.token;
  let current = listen(token);
  const follow = (renewed: string) => {
    if (renewed === token || claimsOf(renewed).documentId !== first.documentId) return;
    token = renewed;
    const previous = current;
    current = listen(renewed);
    // The stream in use stays open until the next one is ready, so no save falls between the two.
    current.addEventListener('ready', () => close(previous));
  };
  const unsubscribe = options.studioOrigin
    ? subscribeToPreview(() => undefined, {
        studioOrigin: options.studioOrigin,
        onToken: follow,
        ...(options.window ? { window: options.window } : {}),
      })
    : () => undefined;
  return () => {
    unsubscribe();
    for (const source of [...sources]) close(source);
  };
}
