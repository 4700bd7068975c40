import { Readable } from 'node:stream';

/** The first bytes of a stream, and a stream that still yields all of it. */
export interface PeekedStream {
  /** Up to `n` bytes: fewer only when the whole stream is shorter. */
  head: Buffer;
  /** Yields `head` and then the rest of the source; destroying it destroys the source. */
  stream: Readable;
}

/**
 * Reads the first `n` bytes of `source` without losing them, so the content type can be detected
 * before the upload is streamed to storage.
 * @example const { head, stream } = await peekStream(file, MIME_SNIFF_BYTES);
 */
export async function peekStream(source: Readable, n: number): Promise<PeekedStream> {
  const iterator: AsyncIterator<Buffer | string> = source[Symbol.asyncIterator]();
  const chunks: Buffer[] = [];
  let length = 0;
  let ended = false;
  while (length < n) {
    const next = await iterator.next();
    if (next.done) {
      ended = true;
      break;
    }
    const chunk = typeof next.value === 'string' ? Buffer.from(next.value) : next.value;
    chunks.push(chunk);
    length += chunk.length;
  }
  const peeked = Buffer.concat(chunks);
  async function* replay(): AsyncGenerator<Buffer> {
    if (peeked.length > 0) yield peeked;
    while (!ended) {
      const next = await iterator.next();
      if (next.done) return;
      yield typeof next.value === 'string' ? Buffer.from(next.value) : next.value;
    }
  }
  const stream = Readable.from(replay(), { objectMode: false });
  // Destroying the replay before it is read must still release the source (an unstarted
  // generator's return() runs none of its code).
  stream.once('close', () => source.destroy());
  return { head: peeked.subarray(0, n), stream };
}
