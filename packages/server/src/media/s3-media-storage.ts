import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import {
  DeleteObjectCommand,
  GetObjectCommand,
  type GetObjectCommandOutput,
  HeadObjectCommand,
  type HeadObjectCommandOutput,
  S3Client,
  type S3ClientConfig,
} from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import { ByteLimit } from './byte-limit.js';
import {
  assertByteRange,
  assertMediaKey,
  type ByteRange,
  type MediaObject,
  type MediaObjectInfo,
  MediaRangeNotSatisfiableError,
  type MediaStorage,
  type PutMediaOptions,
} from './media-storage.js';

/** The S3 minimum part size; an upload holds about `queueSize + 2` parts in memory. */
export const DEFAULT_S3_PART_SIZE_BYTES = 5 * 1024 * 1024;
/** Parts uploaded in parallel per upload: memory per upload grows with it. */
export const DEFAULT_S3_QUEUE_SIZE = 2;
const DEFAULT_S3_REGION = 'us-east-1';

/** Connection settings of the S3-compatible driver (`S3_*` environment variables). */
export interface S3MediaStorageOptions {
  bucket: string;
  region?: string;
  /** Unset means AWS itself; set it for MinIO, R2, s3rver and the like. */
  endpoint?: string;
  /** Without a key pair the SDK's default chain applies (environment, profile, instance role). */
  accessKeyId?: string;
  secretAccessKey?: string;
  forcePathStyle?: boolean;
  partSizeBytes?: number;
  queueSize?: number;
}

/** Media storage in an S3-compatible bucket, streamed with multipart uploads. */
export class S3MediaStorage implements MediaStorage {
  readonly #client: S3Client;
  readonly #bucket: string;
  readonly #partSize: number;
  readonly #queueSize: number;

  constructor(options: S3MediaStorageOptions) {
    this.#client = new S3Client(clientConfig(options));
    this.#bucket = options.bucket;
    this.#partSize = options.partSizeBytes ?? DEFAULT_S3_PART_SIZE_BYTES;
    this.#queueSize = options.queueSize ?? DEFAULT_S3_QUEUE_SIZE;
  }

  async put(key: string, body: Readable, options: PutMediaOptions): Promise<{ sizeBytes: number }> {
    assertMediaKey(key);
    const limit = new ByteLimit(options.maxBytes);
    const upload = new Upload({
      client: this.#client,
      params: { Bucket: this.#bucket, Key: key, Body: limit, ContentType: options.contentType },
      partSize: this.#partSize,
      queueSize: this.#queueSize,
    });
    // Upload aborts its multipart upload itself when the body fails, and only then settles, so
    // once both promises settle no object and no pending upload is left (unless the abort failed).
    const uploading = upload.done().catch((error: unknown) => {
      limit.destroy(error instanceof Error ? error : new Error(String(error)));
      throw error;
    });
    const [piped, uploaded] = await Promise.allSettled([pipeline(body, limit), uploading]);
    if (piped.status === 'rejected') throw piped.reason;
    if (uploaded.status === 'rejected') throw uploaded.reason;
    return { sizeBytes: limit.bytes };
  }

  async get(key: string, options: { range?: ByteRange } = {}): Promise<MediaObject | null> {
    assertMediaKey(key);
    const { range } = options;
    if (range) assertByteRange(range);
    let output: GetObjectCommandOutput;
    try {
      output = await this.#client.send(
        new GetObjectCommand({
          Bucket: this.#bucket,
          Key: key,
          ...(range ? { Range: `bytes=${range.start}-${range.end ?? ''}` } : {}),
        }),
      );
    } catch (error: unknown) {
      if (isMissingObject(error)) return null;
      if (!hasStatus(error, 416)) throw error;
      const info = await this.head(key);
      if (!info) return null;
      throw new MediaRangeNotSatisfiableError(info.sizeBytes);
    }
    const body = output.Body;
    if (!(body instanceof Readable)) throw new Error('S3 GetObject returned a body that is not a Node stream.');
    const served = output.ContentRange ? parseContentRange(output.ContentRange) : null;
    const info = toInfo(output, served?.sizeBytes ?? output.ContentLength);
    // A store that ignores Range sends the whole object: report no range so the caller sends 200.
    return served ? { ...info, body, range: { start: served.start, end: served.end } } : { ...info, body };
  }

  async head(key: string): Promise<MediaObjectInfo | null> {
    assertMediaKey(key);
    try {
      const output = await this.#client.send(new HeadObjectCommand({ Bucket: this.#bucket, Key: key }));
      return toInfo(output, output.ContentLength);
    } catch (error: unknown) {
      if (isMissingObject(error)) return null;
      throw error;
    }
  }

  async delete(key: string): Promise<void> {
    assertMediaKey(key);
    try {
      await this.#client.send(new DeleteObjectCommand({ Bucket: this.#bucket, Key: key }));
    } catch (error: unknown) {
      // S3 answers 204 for a missing key; some compatible stores answer NoSuchKey instead.
      if (!isMissingObject(error)) throw error;
    }
  }

  async close(): Promise<void> {
    this.#client.destroy();
  }
}

function clientConfig(options: S3MediaStorageOptions): S3ClientConfig {
  const { accessKeyId, secretAccessKey } = options;
  return {
    region: options.region || DEFAULT_S3_REGION,
    forcePathStyle: options.forcePathStyle ?? false,
    ...(options.endpoint ? { endpoint: options.endpoint } : {}),
    ...(accessKeyId && secretAccessKey ? { credentials: { accessKeyId, secretAccessKey } } : {}),
    // Default CRC32 trailers on every request are not understood by many S3-compatible stores.
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
  };
}

function toInfo(
  output: GetObjectCommandOutput | HeadObjectCommandOutput,
  sizeBytes: number | undefined,
): MediaObjectInfo {
  return {
    sizeBytes: sizeBytes ?? 0,
    ...(output.ContentType ? { contentType: output.ContentType } : {}),
    ...(output.ETag ? { etag: output.ETag } : {}),
    ...(output.LastModified ? { lastModified: output.LastModified } : {}),
  };
}

/** Parses `bytes <start>-<end>/<size>` (RFC 9110 §14.4). */
function parseContentRange(value: string): { start: number; end: number; sizeBytes: number } | null {
  const match = /^bytes (\d+)-(\d+)\/(\d+)$/.exec(value.trim());
  if (!match) return null;
  return { start: Number(match[1]), end: Number(match[2]), sizeBytes: Number(match[3]) };
}

function isMissingObject(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  // A missing bucket is a configuration error, not a missing object: let it surface.
  return error.name === 'NoSuchKey' || (error.name !== 'NoSuchBucket' && hasStatus(error, 404));
}

function hasStatus(error: unknown, status: number): boolean {
  const metadata = (error as { $metadata?: { httpStatusCode?: number } } | null)?.$metadata;
  return metadata?.httpStatusCode === status;
}
