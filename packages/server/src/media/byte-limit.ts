import { Transform, type TransformCallback } from 'node:stream';
import { mediaTooLarge } from './media-storage.js';

/** A pass-through stream that counts bytes and fails with `PAYLOAD_TOO_LARGE` past `maxBytes`. */
export class ByteLimit extends Transform {
  /** Bytes passed through so far. */
  bytes = 0;
  readonly #maxBytes: number;

  constructor(maxBytes: number) {
    super();
    if (!Number.isSafeInteger(maxBytes) || maxBytes < 0) throw new RangeError(`Invalid maxBytes ${maxBytes}.`);
    this.#maxBytes = maxBytes;
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback): void {
    this.bytes += chunk.length;
    if (this.bytes > this.#maxBytes) {
      callback(mediaTooLarge(this.#maxBytes));
      return;
    }
    callback(null, chunk);
  }
}
