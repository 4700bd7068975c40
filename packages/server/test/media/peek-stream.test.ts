import { createHash } from 'node:crypto';
import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { peekStream } from '../../src/media/peek-stream.js';
import { failing, generated, readAll, streamOf } from './media-storage.contract.js';

describe('peekStream', () => {
  it('returns the first bytes across chunks and still yields everything', async () => {
    const { head, stream } = await peekStream(streamOf('he', 'llo', ' world'), 4);
    expect(head.toString()).toBe('hell');
    expect((await readAll(stream)).toString()).toBe('hello world');
  });

  it('returns fewer bytes when the stream is shorter', async () => {
    const { head, stream } = await peekStream(streamOf('hi'), 4100);
    expect(head.toString()).toBe('hi');
    expect((await readAll(stream)).toString()).toBe('hi');
    const empty = await peekStream(streamOf(), 10);
    expect(empty.head.length).toBe(0);
    expect((await readAll(empty.stream)).length).toBe(0);
  });

  it('passes a large stream through unchanged', async () => {
    const source = createHash('sha256');
    const { head, stream } = await peekStream(generated(3 * 1024 * 1024 + 7, source), 4100);
    expect(head.length).toBe(4100);
    const replayed = createHash('sha256');
    for await (const chunk of stream) replayed.update(chunk as Buffer);
    expect(replayed.digest('hex')).toBe(source.digest('hex'));
  });

  it('rejects when the source fails while peeking, and errors the stream when it fails later', async () => {
    await expect(peekStream(failing(10), 4100)).rejects.toThrow('client disconnected');
    const { stream } = await peekStream(failing(100_000), 10);
    await expect(readAll(stream)).rejects.toThrow('client disconnected');
  });

  it('destroys the source when the returned stream is destroyed unread', async () => {
    const source = Readable.from(['a'.repeat(100), 'b'.repeat(100)], { objectMode: false });
    const { stream } = await peekStream(source, 10);
    stream.destroy();
    await new Promise((resolve) => stream.once('close', resolve));
    expect(source.destroyed).toBe(true);
  });
});
