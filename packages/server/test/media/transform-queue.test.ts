/**
 * The bounded queue image transforms run through (docs/operations.md "Image transforms"): it is what
 * keeps concurrent large transforms inside a memory budget, so its bound is checked here directly,
 * with work the test finishes by hand.
 */
import { isCmsError } from '@cms/core';
import { describe, expect, it } from 'vitest';
import { createTransformQueue, TRANSFORM_QUEUE_RETRY_AFTER_SECONDS } from '../../src/media/transform-queue.js';

/** Work that runs until the test finishes it, noting how many ran at once. */
function gatedWork(tally: { now: number; peak: number; started: string[] }) {
  const gates = new Map<string, () => void>();
  return {
    work: (name: string) => async () => {
      tally.now += 1;
      tally.peak = Math.max(tally.peak, tally.now);
      tally.started.push(name);
      try {
        await new Promise<void>((resolve) => gates.set(name, resolve));
        return name;
      } finally {
        tally.now -= 1;
      }
    },
    finish(name: string) {
      const open = gates.get(name);
      if (!open) throw new Error(`${name} is not running`);
      open();
    },
  };
}

const settle = () => new Promise((resolve) => setImmediate(resolve));

describe('transform queue', () => {
  it('runs at most `concurrency` at once and hands each finished slot to the longest waiting', async () => {
    const tally = { now: 0, peak: 0, started: [] as string[] };
    const gated = gatedWork(tally);
    const queue = createTransformQueue({ concurrency: 2, maxWaiting: 10 });
    const results = ['a', 'b', 'c', 'd', 'e'].map((name) => queue.run(gated.work(name)));
    await settle();
    expect(tally.started).toEqual(['a', 'b']);
    expect(queue.load()).toEqual({ running: 2, waiting: 3 });

    gated.finish('b');
    await settle();
    expect(tally.started).toEqual(['a', 'b', 'c']);
    expect(queue.load()).toEqual({ running: 2, waiting: 2 });
    for (const name of ['a', 'c', 'd', 'e']) {
      await settle();
      gated.finish(name);
    }
    expect(await Promise.all(results)).toEqual(['a', 'b', 'c', 'd', 'e']);
    expect(tally.peak).toBe(2);
    expect(queue.load()).toEqual({ running: 0, waiting: 0 });
  });

  it('refuses one more than `maxWaiting` with SERVICE_UNAVAILABLE and a Retry-After', async () => {
    const tally = { now: 0, peak: 0, started: [] as string[] };
    const gated = gatedWork(tally);
    const queue = createTransformQueue({ concurrency: 1, maxWaiting: 1 });
    const running = queue.run(gated.work('a'));
    const waiting = queue.run(gated.work('b'));
    await settle();
    const refused = await queue.run(gated.work('c')).catch((error: unknown) => error);
    expect(isCmsError(refused)).toBe(true);
    expect(refused).toMatchObject({
      code: 'SERVICE_UNAVAILABLE',
      status: 503,
      details: { retryAfterSeconds: TRANSFORM_QUEUE_RETRY_AFTER_SECONDS },
      headers: { 'retry-after': String(TRANSFORM_QUEUE_RETRY_AFTER_SECONDS) },
    });
    expect(tally.started).toEqual(['a']);

    gated.finish('a');
    await settle();
    gated.finish('b');
    expect(await Promise.all([running, waiting])).toEqual(['a', 'b']);
    expect(tally.started).not.toContain('c');
  });

  it('frees the slot of work that fails', async () => {
    const queue = createTransformQueue({ concurrency: 1, maxWaiting: 0 });
    await expect(
      queue.run(async () => {
        throw new Error('decoder failed');
      }),
    ).rejects.toThrow('decoder failed');
    expect(queue.load()).toEqual({ running: 0, waiting: 0 });
    expect(await queue.run(async () => 'next')).toBe('next');
  });
});
