import type { Document } from '@cms/core';
import {
  isPreviewMessage,
  isTrustedOrigin,
  PREVIEW_MESSAGE_TYPE,
  type PreviewFocusMessage,
  type StudioToSiteMessage,
} from './protocol.js';

/** The element a click landed on, as far as click-to-edit reads it. */
interface ClickedElement {
  closest(selectors: string): { getAttribute(name: string): string | null } | null;
}

/** A click event, as far as click-to-edit reads it. */
interface ClickEvent {
  target: unknown;
  preventDefault(): void;
}

/**
 * The window the SDK listens on, as far as it uses it (the DOM's `Window` fits; written out so the
 * SDK compiles without the DOM library, as its other entries do).
 */
export interface PreviewWindow {
  addEventListener(type: 'message', listener: (event: { origin: string; data: unknown }) => void): void;
  removeEventListener(type: 'message', listener: (event: { origin: string; data: unknown }) => void): void;
  parent: { postMessage(message: unknown, targetOrigin: string): void };
  document: {
    addEventListener(type: 'click', listener: (event: ClickEvent) => void, capture: boolean): void;
    removeEventListener(type: 'click', listener: (event: ClickEvent) => void, capture: boolean): void;
  };
}

/** What `subscribeToPreview` takes besides the callback. */
export interface SubscribeToPreviewOptions {
  /**
   * The Studio's origin (`https://cms.example`), or several: messages from any other origin are
   * ignored, and the site posts its clicks to this origin only.
   */
  studioOrigin: string | readonly string[];
  /** Called with each renewed preview token (for a site that reads with it, or reconnects its stream). */
  onToken?(token: string, expiresAt: string): void;
  /** Post clicks on `data-cms-field` / `data-cms-source` elements to the Studio (default true). */
  clickToEdit?: boolean;
  /** The window to listen on (tests); default the global one. */
  window?: PreviewWindow;
}

/** The element a click lands on, or its nearest ancestor, that is marked for click-to-edit. */
function focusTarget(target: unknown): PreviewFocusMessage | null {
  const clicked = target as Partial<ClickedElement> | null;
  const element =
    typeof clicked?.closest === 'function' ? clicked.closest('[data-cms-field], [data-cms-source]') : null;
  if (!element) return null;
  const field = element.getAttribute('data-cms-field');
  const line = Number.parseInt(element.getAttribute('data-cms-source') ?? '', 10);
  if (field) return { type: PREVIEW_MESSAGE_TYPE, kind: 'focus', field };
  return Number.isInteger(line) && line > 0 ? { type: PREVIEW_MESSAGE_TYPE, kind: 'focus', line } : null;
}

/**
 * Receives the draft the Studio is editing, on every change, when the site is open in the Studio's
 * "Live preview" (docs/live-preview.md). Returns a function that stops listening.
 * @example
 * const stop = subscribeToPreview((doc) => render(doc), { studioOrigin: 'https://cms.example' });
 */
export function subscribeToPreview(
  onDocument: (document: Document) => void,
  options: SubscribeToPreviewOptions,
): () => void {
  const win = options.window ?? (globalThis as unknown as { window: PreviewWindow }).window;
  if (!options?.studioOrigin || options.studioOrigin.length === 0) {
    throw new TypeError('subscribeToPreview needs { studioOrigin }: the origin of the Studio allowed to send drafts.');
  }
  const studioOrigins = typeof options.studioOrigin === 'string' ? [options.studioOrigin] : options.studioOrigin;
  // Replies go to the Studio that framed this page, never to "*": the one trusted origin it came from.
  let studio: string | null = null;
  let lastSequence = -1;

  const onMessage = (event: { origin: string; data: unknown }) => {
    if (!isTrustedOrigin(event.origin, studioOrigins) || !isPreviewMessage(event.data)) return;
    studio = event.origin;
    const message = event.data as StudioToSiteMessage;
    if (message.kind === 'document') {
      if (message.sequence <= lastSequence) return;
      lastSequence = message.sequence;
      onDocument(message.document);
    } else if (message.kind === 'token') {
      options.onToken?.(message.token, message.expiresAt);
    }
  };

  const framed = (win.parent as unknown) !== win;
  const onClick = (event: ClickEvent) => {
    const message = focusTarget(event.target);
    if (!message || !framed) return;
    // In the Studio a click on a marked element edits it rather than following a link.
    event.preventDefault();
    for (const origin of studio ? [studio] : studioOrigins.map((entry) => new URL(entry).origin)) {
      win.parent.postMessage(message, origin);
    }
  };

  win.addEventListener('message', onMessage);
  if (options.clickToEdit !== false) win.document.addEventListener('click', onClick, true);
  if (framed) {
    for (const origin of studioOrigins)
      win.parent.postMessage({ type: PREVIEW_MESSAGE_TYPE, kind: 'ready' }, new URL(origin).origin);
  }
  return () => {
    win.removeEventListener('message', onMessage);
    win.document.removeEventListener('click', onClick, true);
  };
}
