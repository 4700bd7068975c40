/**
 * `cms.media`: list, get, update, delete, upload from a Blob, a File or a byte stream, with progress,
 * and the addresses of transformed images (`imageUrl`, `srcset`).
 * Progress counts the bytes handed to fetch: the body is then streamed (a multipart body built
 * here), which Node, Deno, Bun and Chromium over HTTP/2 support; elsewhere pass no `onProgress`
 * and the file goes as FormData.
 */

import { type ImageOptions, imageUrl, type SrcsetEntry, srcset } from './media-image-url.js';
import { iteratePages } from './pagination.js';
import { callRoute, routeSpec } from './route-call.js';
import type { CallOptions, Transport } from './transport.js';
import type { MediaAsset, MediaListQuery, MediaUpdateBody } from './types.js';

/** Upload progress: bytes sent so far, and the total when known. */
export interface UploadProgress {
  loaded: number;
  total: number | null;
}

/** What `media.upload` takes. */
export interface MediaUploadInput extends CallOptions {
  /** The file: a Blob or File, or a stream of bytes. */
  file: Blob | ReadableStream<Uint8Array>;
  /** File name; defaults to the File's name, else `upload`. */
  filename?: string;
  /** MIME type; defaults to the Blob's type, else `application/octet-stream` (the server sniffs the bytes). */
  contentType?: string;
  /** Size in bytes of a stream, for progress totals. */
  size?: number;
  onProgress?: (progress: UploadProgress) => void;
}

function quoted(value: string): string {
  return value.replace(/["\\\r\n]/g, (character) => encodeURIComponent(character));
}

function counted(
  source: ReadableStream<Uint8Array>,
  head: Uint8Array,
  tail: Uint8Array,
  total: number | null,
  onProgress: ((progress: UploadProgress) => void) | undefined,
): ReadableStream<Uint8Array> {
  const reader = source.getReader();
  let loaded = 0;
  let stage: 'head' | 'body' | 'done' = 'head';
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      if (stage === 'head') {
        stage = 'body';
        controller.enqueue(head);
        return;
      }
      if (stage === 'done') return;
      const { done, value } = await reader.read();
      if (done) {
        stage = 'done';
        controller.enqueue(tail);
        controller.close();
        onProgress?.({ loaded, total: total ?? loaded });
        return;
      }
      loaded += value.byteLength;
      controller.enqueue(value);
      onProgress?.({ loaded, total });
    },
    cancel(reason) {
      return reader.cancel(reason);
    },
  });
}

/** The media area. */
export function mediaArea(transport: Transport) {
  const list = (query: MediaListQuery = {}, options: CallOptions = {}) =>
    callRoute(transport, 'media.list', { query, envelope: 'paginated' }, options);
  return {
    list,
    iterate: (query: MediaListQuery = {}, options: CallOptions = {}) =>
      iteratePages((offset) => list({ ...query, offset }, options), query.offset ?? 0),
    get: (id: string, options: CallOptions = {}) => callRoute(transport, 'media.get', { params: { id } }, options),
    delete: (id: string, options: CallOptions = {}) =>
      callRoute(transport, 'media.delete', { params: { id } }, options),
    /** Changes an asset's `alt` text and/or `focalPoint` (null: back to the middle). */
    update: (id: string, body: MediaUpdateBody, options: CallOptions = {}) =>
      callRoute(transport, 'media.update', { params: { id }, json: body }, options),
    /** The address of the asset's image transformed by `options` (no request is made). */
    imageUrl: (asset: { id: string } | string, options: ImageOptions = {}) =>
      imageUrl(transport.options.baseUrl, asset, options),
    /** A `srcset` value of the asset's image at several widths (default: presets small, medium, large). */
    srcset: (
      asset: { id: string; width?: number | null },
      entries?: readonly SrcsetEntry[],
      shared?: Pick<ImageOptions, 'format' | 'q'>,
    ) => srcset(transport.options.baseUrl, asset, entries, shared),
    /** Uploads one file (`multipart/form-data`, part `file`). */
    upload(input: MediaUploadInput): Promise<MediaAsset> {
      const { file, onProgress, signal, timeoutMs, headers } = input;
      const options: CallOptions = {
        ...(signal ? { signal } : {}),
        ...(timeoutMs ? { timeoutMs } : {}),
        ...(headers ? { headers } : {}),
      };
      const isBlob = typeof Blob !== 'undefined' && file instanceof Blob;
      const filename =
        input.filename ?? (isBlob && 'name' in file && typeof file.name === 'string' ? file.name : 'upload');
      const contentType = input.contentType || (isBlob ? file.type : '') || 'application/octet-stream';
      if (isBlob && !onProgress) {
        const form = new FormData();
        form.append('file', new Blob([file], { type: contentType }), filename);
        return callRoute(transport, 'media.upload', { body: form }, options);
      }
      const boundary = `cms-sdk-${crypto.randomUUID()}`;
      const encoder = new TextEncoder();
      const head = encoder.encode(
        `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${quoted(filename)}"\r\nContent-Type: ${contentType}\r\n\r\n`,
      );
      const tail = encoder.encode(`\r\n--${boundary}--\r\n`);
      const source = isBlob ? (file as Blob).stream() : (file as ReadableStream<Uint8Array>);
      const total = isBlob ? (file as Blob).size : (input.size ?? null);
      const spec = routeSpec(
        'media.upload',
        {
          body: counted(source, head, tail, total, onProgress),
          headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
        },
        options,
      );
      return transport.call<MediaAsset>(spec);
    },
  };
}
