import type { Readable } from 'node:stream';
import { CmsError } from '@cms/core';

/** An inclusive byte range, as in an HTTP `Range: bytes=start-end` header; `end` defaults to the last byte. */
export interface ByteRange {
  start: number;
  end?: number;
}

/** Options of `MediaStorage.put`. */
export interface PutMediaOptions {
  /** Stored with the object where the driver can (S3); the database row stays the source of truth. */
  contentType: string;
  /** Largest accepted body; one byte more fails with `PAYLOAD_TOO_LARGE` and leaves no object. */
  maxBytes: number;
}

/** What a driver knows about a stored object without reading it. */
export interface MediaObjectInfo {
  /** Size of the whole object, even when a range was read. */
  sizeBytes: number;
  contentType?: string;
  /** Quoted strong ETag, ready for an `ETag` header. */
  etag?: string;
  lastModified?: Date;
}

/** A stored object opened for reading. */
export interface MediaObject extends MediaObjectInfo {
  body: Readable;
  /** The inclusive range `body` yields; absent when `body` is the whole object (no range asked, or ignored). */
  range?: { start: number; end: number };
}

/** Where media files live: local filesystem or S3-compatible object storage. */
export interface MediaStorage {
  /** Streams `body` to `key`; on any failure no object (and no partial object) is left at `key`. */
  put(key: string, body: Readable, options: PutMediaOptions): Promise<{ sizeBytes: number }>;
  /** Opens the object (or one byte range of it), or `null` when there is none. */
  get(key: string, options?: { range?: ByteRange }): Promise<MediaObject | null>;
  /** The object's size and validators, or `null` when there is none. */
  head(key: string): Promise<MediaObjectInfo | null>;
  /** Removes the object; removing a missing one is not an error. */
  delete(key: string): Promise<void>;
  /** A time-limited URL that reads the object directly from the store, where the driver can sign one. */
  presignGet?(key: string, expiresSeconds: number): Promise<string>;
  /** Releases connections; the storage is unusable afterwards. */
  close(): Promise<void>;
}

/** Thrown by `get` when the range starts at or past the end of the object (HTTP 416). */
export class MediaRangeNotSatisfiableError extends Error {
  readonly sizeBytes: number;

  constructor(sizeBytes: number) {
    super(`The requested range is outside the object (size ${sizeBytes} bytes).`);
    this.name = 'MediaRangeNotSatisfiableError';
    this.sizeBytes = sizeBytes;
  }
}

/** Longest key in UTF-8 bytes: the S3 limit, so a key valid for one driver is valid for both. */
export const MAX_MEDIA_KEY_BYTES = 1024;

// Forbidding a leading dot rules out `.` and `..` and keeps the fs driver's `.tmp` area unreachable.
const UNSAFE_SEGMENT = /^\.|[\\\p{Cc}]/u;

/** Throws `INVALID_INPUT` unless `key` is `seg/seg/...` with no empty, dot-led, backslash or control segments. */
export function assertMediaKey(key: string): void {
  const segments = key.split('/');
  const valid =
    key.length > 0 &&
    Buffer.byteLength(key) <= MAX_MEDIA_KEY_BYTES &&
    segments.every((segment) => segment.length > 0 && !UNSAFE_SEGMENT.test(segment));
  if (!valid) throw new CmsError('INVALID_INPUT', `"${key}" is not a valid media storage key.`);
}

/** Throws a `RangeError` for a malformed range: the caller must ignore such a Range header (RFC 9110 §14.2). */
export function assertByteRange(range: ByteRange): void {
  const { start, end } = range;
  const validEnd = end === undefined || (Number.isSafeInteger(end) && end >= start);
  if (!Number.isSafeInteger(start) || start < 0 || !validEnd) {
    throw new RangeError(`Invalid byte range ${start}-${end ?? ''}.`);
  }
}

/** Clamps `range` to an object of `sizeBytes`, or throws `MediaRangeNotSatisfiableError`. */
export function resolveByteRange(range: ByteRange, sizeBytes: number): { start: number; end: number } {
  assertByteRange(range);
  if (range.start >= sizeBytes) throw new MediaRangeNotSatisfiableError(sizeBytes);
  return { start: range.start, end: Math.min(range.end ?? sizeBytes - 1, sizeBytes - 1) };
}

/** The `PAYLOAD_TOO_LARGE` error a driver throws when a body passes `maxBytes`. */
export function mediaTooLarge(maxBytes: number): CmsError {
  return new CmsError('PAYLOAD_TOO_LARGE', `The file is larger than the limit of ${maxBytes} bytes.`, {
    maxBytes,
  });
}
