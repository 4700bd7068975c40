import type { Document } from '@cms/core';
import { describe, expect, it } from 'vitest';
import { type PreviewWindow, subscribeToPreview } from './subscribe.js';

/** A window stand-in: listeners by event name, a parent that records what is posted to it. */
function fakeWindow(framed = true) {
  const listeners = new Map<string, Array<(event: unknown) => void>>();
  const posted: Array<{ message: unknown; origin: string }> = [];
  const win = {
    addEventListener: (name: string, listener: (event: unknown) => void) =>
      listeners.set(name, [...(listeners.get(name) ?? []), listener]),
    removeEventListener: (name: string, listener: (event: unknown) => void) =>
      listeners.set(
        name,
        (listeners.get(name) ?? []).filter((l) => l !== listener),
      ),
    document: { addEventListener: () => undefined, removeEventListener: () => undefined },
    parent: null as unknown,
  };
  win.parent = framed ? { postMessage: (message: unknown, origin: string) => posted.push({ message, origin }) } : win;
  const deliver = (origin: string, data: unknown) => {
    for (const listener of listeners.get('message') ?? []) listener({ origin, data });
  };
  return { win: win as unknown as PreviewWindow, deliver, posted };
}

const STUDIO = 'https://cms.example';
const doc = (title: string) => ({ frontmatter: { title } }) as unknown as Document;
const message = (title: string, sequence: number) => ({
  type: 'cms:preview',
  kind: 'document',
  sequence,
  document: doc(title),
});

describe('subscribeToPreview', () => {
  it('takes drafts from the Studio origin only, in order, and says ready to that origin only', () => {
    const { win, deliver, posted } = fakeWindow();
    const seen: string[] = [];
    const stop = subscribeToPreview((d) => seen.push(d.frontmatter.title as string), {
      studioOrigin: `${STUDIO}/studio/`,
      window: win,
    });
    expect(posted).toEqual([{ message: { type: 'cms:preview', kind: 'ready' }, origin: STUDIO }]);

    deliver('https://evil.example', message('forged', 1));
    deliver('http://cms.example', message('wrong scheme', 2));
    deliver(STUDIO, { type: 'other', kind: 'document', sequence: 3, document: doc('other type') });
    deliver(STUDIO, message('first', 4));
    deliver(STUDIO, message('late', 3));
    deliver(STUDIO, message('second', 5));
    expect(seen).toEqual(['first', 'second']);

    stop();
    deliver(STUDIO, message('after stop', 6));
    expect(seen).toEqual(['first', 'second']);
  });

  it('hands renewed tokens to onToken, from the Studio origin only', () => {
    const { win, deliver } = fakeWindow();
    const tokens: string[] = [];
    subscribeToPreview(() => undefined, { studioOrigin: STUDIO, window: win, onToken: (token) => tokens.push(token) });
    deliver('https://evil.example', { type: 'cms:preview', kind: 'token', token: 'forged', expiresAt: '' });
    deliver(STUDIO, { type: 'cms:preview', kind: 'token', token: 'renewed', expiresAt: '' });
    expect(tokens).toEqual(['renewed']);
  });

  it('needs the Studio origin', () => {
    const { win } = fakeWindow(false);
    expect(() => subscribeToPreview(() => undefined, { studioOrigin: '', window: win })).toThrow(/studioOrigin/);
  });
});
