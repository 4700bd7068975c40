import { createHash, type Hash, randomUUID } from 'node:crypto';
import { Readable } from 'node:stream';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { isCmsError } from '@cms/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MediaRangeNotSatisfiableError, type MediaStorage } from '../../src/media/media-storage.js';

const MiB = 1024 * 1024;
const CHUNK_BYTES = 64 * 1024;
/** Above the 5 MiB S3 part size, so failures happen after a multipart upload has started. */
const MULTIPART_BYTES = 12 * MiB;
// Shared, never-mutated chunks: the generator itself then makes no garbage that would blur the
// memory measurement.
const PATTERNS = Array.from({ length: 8 }, (_, index) => Buffer.alloc(CHUNK_BYTES, index + 1));

/** A driver under test: opened once per suite, closed afterwards. */
export interface MediaStorageFixture {
  storage: MediaStorage;
  close(): Promise<void>;
}

/** Runs the behaviour every media storage driver must share. */
export function describeMediaStorageContract(name: string, open: () => Promise<MediaStorageFixture>): void {
  describe(`media storage contract: ${name}`, () => {
    let fixture: MediaStorageFixture;
    let storage: MediaStorage;

    beforeAll(async () => {
      fixture = await open();
      storage = fixture.storage;
    });
    afterAll(async () => {
      await fixture?.close();
    });

    // First, so earlier tests have not already grown the heap this one measures.
    it('streams a 50 MB upload without holding it in memory', async () => {
      const total = 50 * MiB;
      const key = newKey('large.bin');
      const written = createHash('sha256');
      // Warm up first: loading the driver's code on first use is not what this test measures.
      await storage.put(key, streamOf('warm-up'), { contentType: 'text/plain', maxBytes: 10 });
      collectGarbage();
      const baseline = process.memoryUsage().rss;
      let peak = baseline;
      const sampler = setInterval(() => {
        collectGarbage();
        peak = Math.max(peak, process.memoryUsage().rss);
      }, 20);
      try {
        const result = await storage.put(key, generated(total, written), {
          contentType: 'application/octet-stream',
          maxBytes: total,
        });
        expect(result.sizeBytes).toBe(total);
      } finally {
        clearInterval(sampler);
      }
      peak = Math.max(peak, process.memoryUsage().rss);
      expect(peak - baseline).toBeLessThan(40 * MiB);

      const object = await storage.get(key);
      expect(object?.sizeBytes).toBe(total);
      const read = createHash('sha256');
      for await (const chunk of object?.body ?? []) read.update(chunk as Buffer);
      expect(read.digest('hex')).toBe(written.digest('hex'));
      await storage.delete(key);
    }, 120_000);

    it('puts, heads, gets and deletes an object', async () => {
      const key = newKey('hello.txt');
      const result = await storage.put(key, streamOf('hello ', 'world'), { contentType: 'text/plain', maxBytes: 100 });
      expect(result).toEqual({ sizeBytes: 11 });

      const info = await storage.head(key);
      expect(info?.sizeBytes).toBe(11);
      expect(info?.etag).toMatch(/^".+"$/);
      if (info?.contentType !== undefined) expect(info.contentType).toBe('text/plain');

      const object = await storage.get(key);
      expect(object).not.toBeNull();
      expect(object?.range).toBeUndefined();
      expect(object?.sizeBytes).toBe(11);
      expect(object?.etag).toBe(info?.etag);
      expect((await readAll(object?.body)).toString()).toBe('hello world');

      await storage.delete(key);
      expect(await storage.head(key)).toBeNull();
      expect(await storage.get(key)).toBeNull();
      await storage.delete(key);
    });

    it('answers null and deletes quietly for a key never written', async () => {
      const key = newKey('missing.txt');
      expect(await storage.head(key)).toBeNull();
      expect(await storage.get(key)).toBeNull();
      expect(await storage.get(key, { range: { start: 0, end: 1 } })).toBeNull();
      await expect(storage.delete(key)).resolves.toBeUndefined();
    });

    it('stores an empty file', async () => {
      const key = newKey('empty.txt');
      expect(await storage.put(key, streamOf(), { contentType: 'text/plain', maxBytes: 10 })).toEqual({ sizeBytes: 0 });
      const object = await storage.get(key);
      expect(object?.sizeBytes).toBe(0);
      expect((await readAll(object?.body)).length).toBe(0);
      await storage.delete(key);
    });

    it('replaces an object written twice', async () => {
      const key = newKey('twice.txt');
      await storage.put(key, streamOf('first version'), { contentType: 'text/plain', maxBytes: 100 });
      await storage.put(key, streamOf('second'), { contentType: 'text/plain', maxBytes: 100 });
      expect((await readAll((await storage.get(key))?.body)).toString()).toBe('second');
      await storage.delete(key);
    });

    it('reads byte ranges, clamping the end and refusing a start past the end', async () => {
      const key = newKey('digits.txt');
      await storage.put(key, streamOf('0123456789'), { contentType: 'text/plain', maxBytes: 10 });

      const middle = await storage.get(key, { range: { start: 2, end: 5 } });
      expect(middle?.range).toEqual({ start: 2, end: 5 });
      expect(middle?.sizeBytes).toBe(10);
      expect((await readAll(middle?.body)).toString()).toBe('2345');

      const tail = await storage.get(key, { range: { start: 7 } });
      expect(tail?.range).toEqual({ start: 7, end: 9 });
      expect((await readAll(tail?.body)).toString()).toBe('789');

      const clamped = await storage.get(key, { range: { start: 8, end: 1000 } });
      expect(clamped?.range).toEqual({ start: 8, end: 9 });
      expect((await readAll(clamped?.body)).toString()).toBe('89');

      const outside = storage.get(key, { range: { start: 10 } });
      await expect(outside).rejects.toBeInstanceOf(MediaRangeNotSatisfiableError);
      await expect(outside).rejects.toMatchObject({ sizeBytes: 10 });
      await expect(storage.get(key, { range: { start: 5, end: 4 } })).rejects.toBeInstanceOf(RangeError);
      await storage.delete(key);
    });

    it('accepts exactly maxBytes', async () => {
      const key = newKey('exact.bin');
      expect(await storage.put(key, streamOf('12345'), { contentType: 'text/plain', maxBytes: 5 })).toEqual({
        sizeBytes: 5,
      });
      await storage.delete(key);
    });

    it.each([
      ['a small body', 6, 5],
      ['a multipart-sized body', MULTIPART_BYTES, 6 * MiB],
    ])(
      'refuses %s over maxBytes with PAYLOAD_TOO_LARGE and leaves no object',
      async (_, size, maxBytes) => {
        const key = newKey('too-large.bin');
        const error = await storage
          .put(key, generated(size), { contentType: 'application/octet-stream', maxBytes })
          .catch((e: unknown) => e);
        expect(isCmsError(error) && error.code).toBe('PAYLOAD_TOO_LARGE');
        expect(isCmsError(error) && error.status).toBe(413);
        expect(await storage.head(key)).toBeNull();
      },
      60_000,
    );

    it.each([
      ['before any byte', 0],
      ['after a few bytes', 1000],
      ['after a multipart upload started', 7 * MiB],
    ])(
      'leaves no object when the source fails %s',
      async (_, failAfter) => {
        const key = newKey('broken.bin');
        const put = storage.put(key, failing(failAfter), {
          contentType: 'application/octet-stream',
          maxBytes: MULTIPART_BYTES,
        });
        await expect(put).rejects.toThrow('client disconnected');
        expect(await storage.head(key)).toBeNull();
      },
      60_000,
    );

    it('keeps the previous object when a replacing upload fails', async () => {
      const key = newKey('kept.txt');
      await storage.put(key, streamOf('original'), { contentType: 'text/plain', maxBytes: 100 });
      await expect(storage.put(key, failing(10), { contentType: 'text/plain', maxBytes: 100 })).rejects.toThrow();
      await expect(
        storage.put(key, streamOf('x'.repeat(101)), { contentType: 'text/plain', maxBytes: 100 }),
      ).rejects.toThrow();
      expect((await readAll((await storage.get(key))?.body)).toString()).toBe('original');
      await storage.delete(key);
    });

    it.each([
      '',
      '/abs/file.txt',
      '../escape.txt',
      'a/../../escape.txt',
      'a//b.txt',
      'a/./b.txt',
      'a/b/',
      'a\\..\\b.txt',
      '.tmp/x',
      'a/.hidden',
      'a/b\u0000c',
    ])('refuses the key %j with INVALID_INPUT', async (key) => {
      for (const attempt of [
        () => storage.put(key, streamOf('x'), { contentType: 'text/plain', maxBytes: 10 }),
        () => storage.get(key),
        () => storage.head(key),
        () => storage.delete(key),
      ]) {
        const error = await attempt().catch((e: unknown) => e);
        expect(isCmsError(error) && error.code).toBe('INVALID_INPUT');
      }
    });
  });
}

// V8 lets Buffer memory grow by up to 64 MB before it collects, so without forcing collection
// peak RSS would measure uncollected garbage (one copy per 5 MB S3 part) rather than retention.
const collectGarbage = (() => {
  setFlagsFromString('--expose-gc');
  return runInNewContext('gc') as () => void;
})();

/** A key in the shape the media service builds: project/environment/media id/file name. */
export function newKey(filename: string): string {
  return `${randomUUID()}/${randomUUID()}/${randomUUID()}/${filename}`;
}

/** A byte stream of the given chunks. */
export function streamOf(...chunks: string[]): Readable {
  return Readable.from(
    chunks.map((chunk) => Buffer.from(chunk)),
    { objectMode: false },
  );
}

/** `total` generated bytes in 64 KiB chunks, optionally hashed as they are produced. */
export function generated(total: number, hash?: Hash): Readable {
  function* chunks(): Generator<Buffer> {
    for (let offset = 0, index = 0; offset < total; offset += CHUNK_BYTES, index++) {
      const chunk = (PATTERNS[index % PATTERNS.length] as Buffer).subarray(0, total - offset);
      hash?.update(chunk);
      yield chunk;
    }
  }
  return Readable.from(chunks(), { objectMode: false });
}

/** A stream that yields `failAfter` bytes, then fails as a dropped client connection does. */
export function failing(failAfter: number): Readable {
  async function* chunks(): AsyncGenerator<Buffer> {
    for await (const chunk of generated(failAfter)) yield chunk as Buffer;
    throw new Error('client disconnected');
  }
  return Readable.from(chunks(), { objectMode: false });
}

/** Reads a whole stream into memory (small test objects only). */
export async function readAll(stream: Readable | undefined): Promise<Buffer> {
  if (!stream) throw new Error('expected a body');
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}
