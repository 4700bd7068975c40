import { afterEach, describe, expect, it, vi } from 'vitest';
import { type EventSourceClass, reloadOnPreviewChange } from './reload.js';
import type { PreviewWindow } from './subscribe.js';

/** An EventSource stand-in: the streams opened, their listeners, whether they were closed. */
class FakeSource {
  static opened: FakeSource[] = [];
  listeners = new Map<string, Array<(event: { data?: unknown }) => void>>();
  closed = false;
  constructor(readonly url: string) {
    FakeSource.opened.push(this);
  }
  addEventListener(type: string, listener: (event: { data?: unknown }) => void) {
    this.listeners.set(type, [...(this.listeners.get(type) ?? []), listener]);
  }
  close() {
    this.closed = true;
  }
  emit(type: string, data: unknown) {
    for (const listener of this.listeners.get(type) ?? []) listener({ data: JSON.stringify(data) });
  }
}
const Source = FakeSource as unknown as EventSourceClass;
const last = () => FakeSource.opened.at(-1) as FakeSource;

/** A token as far as the helper reads it (its claims; the server verifies the signature). */
const tokenFor = (draftRevision: number, documentId = 'doc-1', salt = '') =>
  `h.${Buffer.from(JSON.stringify({ documentId, draftRevision, salt })).toString('base64url')}.s`;
const change = (draftRevision: number, token = tokenFor(draftRevision)) => ({
  documentId: 'doc-1',
  draftRevision,
  updatedAt: '2026-11-28T00:00:00.000Z',
  token,
});

/** A framed window: message listeners, and a parent that records what the page posts. */
function fakeWindow() {
  const listeners: Array<(event: { origin: string; data: unknown }) => void> = [];
  const win = {
    addEventListener: (_: string, listener: (event: { origin: string; data: unknown }) => void) =>
      listeners.push(listener),
    removeEventListener: (_: string, listener: (event: { origin: string; data: unknown }) => void) =>
      listeners.splice(listeners.indexOf(listener), 1),
    document: { addEventListener: () => undefined, removeEventListener: () => undefined },
    parent: { postMessage: () => undefined },
  };
  const deliver = (origin: string, data: unknown) => {
    for (const listener of [...listeners]) listener({ origin, data });
  };
  return { win: win as unknown as PreviewWindow, deliver };
}
const STUDIO = 'https://cms.example';
const renewal = (token: string) => ({ type: 'cms:preview', kind: 'token', token, expiresAt: '' });

afterEach(() => {
  FakeSource.opened = [];
  vi.unstubAllGlobals();
});

describe('reloadOnPreviewChange', () => {
  it("listens to the token's document and hands each newer saved change on once", () => {
    const seen: number[] = [];
    const token = tokenFor(3);
    const stop = reloadOnPreviewChange({
      baseUrl: 'https://cms.example/',
      token,
      EventSource: Source,
      onChange: (event) => seen.push(event.draftRevision),
    });
    expect(last().url).toBe(
      `https://cms.example/api/v1/content/doc-1/preview-events?token=${encodeURIComponent(token)}`,
    );
    last().emit('change', change(4));
    last().emit('change', change(4));
    last().emit('change', change(3));
    last().emit('change', change(5));
    expect(seen).toEqual([4, 5]);
    stop();
    expect(last().closed).toBe(true);
  });

  it("reloads the page with the change's token by default, and stops when the token runs out", () => {
    const replace = vi.fn();
    vi.stubGlobal('location', { href: 'https://site.example/p/hello?token=old&locale=en', replace });
    reloadOnPreviewChange({ baseUrl: STUDIO, token: tokenFor(1), EventSource: Source });
    const saved = change(2, 'new.token.value');
    last().emit('change', saved);
    expect(replace).toHaveBeenCalledWith('https://site.example/p/hello?token=new.token.value&locale=en');
    last().emit('expired', { documentId: 'doc-1' });
    expect(last().closed).toBe(true);
  });

  it("follows the Studio's renewed tokens: the next stream opens, the previous closes once it is ready", () => {
    const { win, deliver } = fakeWindow();
    const seen: number[] = [];
    const stop = reloadOnPreviewChange({
      baseUrl: STUDIO,
      token: tokenFor(1),
      studioOrigin: STUDIO,
      window: win,
      EventSource: Source,
      onChange: (event) => seen.push(event.draftRevision),
    });
    const firstStream = last();

    // Another origin's token, another document's token, the same token: nothing is opened.
    deliver('https://evil.example', renewal(tokenFor(1, 'doc-1', 'forged')));
    deliver(STUDIO, renewal(tokenFor(1, 'doc-2')));
    deliver(STUDIO, renewal(tokenFor(1)));
    expect(FakeSource.opened).toHaveLength(1);

    const renewed = tokenFor(1, 'doc-1', 'renewed');
    deliver(STUDIO, renewal(renewed));
    const next = last();
    expect(next).not.toBe(firstStream);
    expect(next.url).toContain(encodeURIComponent(renewed));
    // Until the next stream is ready, the first still tells of saves; both telling of one save counts once.
    expect(firstStream.closed).toBe(false);
    firstStream.emit('change', change(2));
    next.emit('ready', { documentId: 'doc-1', draftRevision: 2 });
    expect(firstStream.closed).toBe(true);
    next.emit('change', change(2));
    next.emit('change', change(3));
    expect(seen).toEqual([2, 3]);

    stop();
    expect(next.closed).toBe(true);
    deliver(STUDIO, renewal(tokenFor(3, 'doc-1', 'after stop')));
    expect(FakeSource.opened).toHaveLength(2);
  });
});
