import { fork } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { once } from 'node:events';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import http from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import { type RequestOptions, startTestServer, type TestResponse, type TestServer } from '../support/test-server.js';

/** The media drivers every behaviour runs on. */
export const DRIVERS = ['fs', 's3'] as const;
export type Driver = (typeof DRIVERS)[number];

const BUCKET = 'cms-media-api-test';
const S3RVER_PROCESS = fileURLToPath(new URL('../media/s3rver-process.mjs', import.meta.url));

/** A 1x1 PNG. */
export const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
  'base64',
);

/** A test server on one media driver, and a view of what its storage holds. */
export interface MediaTestServer {
  t: TestServer;
  driver: Driver;
  /** Every stored object key (fs: every file under the media root, temp files included). */
  storedKeys(): Promise<string[]>;
  close(): Promise<void>;
}

/** Starts a server on `driver`; for s3, a real s3rver in a child process on a free port. */
export async function startMediaServer(driver: Driver, env: Record<string, string> = {}): Promise<MediaTestServer> {
  if (driver === 'fs') {
    const t = await startTestServer({ env });
    const root = path.join(t.dataDir, 'media');
    return { t, driver, storedKeys: () => listFiles(root), close: () => t.close() };
  }
  const s3 = await startS3rver();
  const t = await startTestServer({ env: { ...s3.env, ...env } }).catch(async (error: unknown) => {
    await s3.close();
    throw error;
  });
  return {
    t,
    driver,
    storedKeys: s3.listKeys,
    close: async () => {
      await t.close();
      await s3.close();
    },
  };
}

/** A real s3rver in a child process on a free port, with the settings that point a server at it. */
export async function startS3rver() {
  const directory = await mkdtemp(path.join(tmpdir(), 'cms-media-api-s3-'));
  const child = fork(S3RVER_PROCESS, [directory, BUCKET], { stdio: ['ignore', 'ignore', 'inherit', 'ipc'] });
  const [message] = (await Promise.race([
    once(child, 'message'),
    once(child, 'exit').then(() => Promise.reject(new Error('s3rver exited before listening'))),
  ])) as [{ port: number }];
  const endpoint = `http://127.0.0.1:${message.port}`;
  const client = new S3Client({
    endpoint,
    region: 'us-east-1',
    forcePathStyle: true,
    credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' },
  });
  return {
    env: {
      CMS_MEDIA_DRIVER: 's3',
      S3_ENDPOINT: endpoint,
      S3_REGION: 'us-east-1',
      S3_BUCKET: BUCKET,
      S3_ACCESS_KEY_ID: 'S3RVER',
      S3_SECRET_ACCESS_KEY: 'S3RVER',
      S3_FORCE_PATH_STYLE: 'true',
    },
    async listKeys(): Promise<string[]> {
      const output = await client.send(new ListObjectsV2Command({ Bucket: BUCKET }));
      return (output.Contents ?? []).map((object) => object.Key ?? '').sort();
    },
    async close() {
      client.destroy();
      const exited = once(child, 'exit');
      child.disconnect();
      await exited;
      await rm(directory, { recursive: true, force: true });
    },
  };
}

async function listFiles(root: string): Promise<string[]> {
  const entries = await readdir(root, { recursive: true, withFileTypes: true }).catch((error: unknown) => {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  });
  return entries
    .filter((entry) => entry.isFile())
    .map((entry) => path.relative(root, path.join(entry.parentPath, entry.name)).split(path.sep).join('/'))
    .sort();
}

/** One part of a multipart body. */
export interface Part {
  name: string;
  filename?: string;
  contentType?: string;
  content: string | Uint8Array;
}

/** A multipart/form-data body built by hand, so tests control every header of every part. */
export function multipartBody(parts: readonly Part[]): { contentType: string; body: Buffer } {
  const boundary = `cms-test-${randomUUID()}`;
  const chunks: Buffer[] = [];
  for (const part of parts) {
    chunks.push(partHead(boundary, part), Buffer.from(part.content), Buffer.from('\r\n'));
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return { contentType: `multipart/form-data; boundary=${boundary}`, body: Buffer.concat(chunks) };
}

function partHead(boundary: string, part: Omit<Part, 'content'>): Buffer {
  const filename = part.filename === undefined ? '' : `; filename="${part.filename}"`;
  const type = part.contentType ? `\r\nContent-Type: ${part.contentType}` : '';
  return Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${part.name}"${filename}${type}\r\n\r\n`);
}

/** Uploads one file as the `file` part. */
export function upload(
  t: TestServer,
  file: { filename: string; content: string | Uint8Array; contentType?: string },
  options: RequestOptions = {},
): Promise<TestResponse> {
  const { contentType, body } = multipartBody([{ name: 'file', contentType: 'application/octet-stream', ...file }]);
  return t.request('POST', '/api/v1/media/upload', {
    ...options,
    rawBody: body,
    headers: { 'content-type': contentType, ...options.headers },
  });
}

/** Uploads and expects 201; returns the asset. */
export async function uploadOk(
  t: TestServer,
  file: { filename: string; content: string | Uint8Array; contentType?: string },
  options: RequestOptions = {},
): Promise<any> {
  const response = await upload(t, file, options);
  if (response.status !== 201) throw new Error(`upload failed: ${response.status} ${response.text}`);
  return response.body.data;
}

/** The path of an asset url, to fetch it from the test server (whose public url has port 0). */
export function fileUrl(t: TestServer, asset: { url: string }): string {
  return `${t.url}${new URL(asset.url).pathname}`;
}

/** The outcome of a streamed upload: the answer, or `aborted` when the client cut it. */
export type StreamedUploadResult = { status: number; body: any } | 'aborted';

/**
 * Streams an upload over node:http: the multipart head, `file` as it is produced, the closing
 * boundary. `abortAfterBytes` destroys the request once that many file bytes are written.
 */
export function streamUpload(
  t: TestServer,
  file: { filename: string; body: Readable; contentLength?: number },
  options: { abortAfterBytes?: number; beforeAbort?: () => Promise<void>; headers?: Record<string, string> } = {},
): Promise<StreamedUploadResult> {
  const boundary = `cms-test-${randomUUID()}`;
  const head = partHead(boundary, { name: 'file', filename: file.filename, contentType: 'application/octet-stream' });
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  const headers: Record<string, string> = {
    authorization: `Bearer ${t.adminKey}`,
    'x-cms-project': 'default',
    'x-cms-environment': 'production',
    'content-type': `multipart/form-data; boundary=${boundary}`,
    ...options.headers,
  };
  if (file.contentLength !== undefined) {
    headers['content-length'] = String(head.length + file.contentLength + tail.length);
  }
  return new Promise((resolve, reject) => {
    let answered = false;
    const request = http.request(`${t.url}/api/v1/media/upload`, { method: 'POST', headers, agent: false });
    request.on('response', (response) => {
      answered = true;
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => {
        const text = Buffer.concat(chunks).toString();
        resolve({ status: response.statusCode ?? 0, body: text ? JSON.parse(text) : null });
        request.destroy();
      });
    });
    request.on('error', (error) => {
      // Writing on after the server answered early (413) may fail: the answer is what counts.
      if (!answered) reject(error);
    });
    const write = (chunk: Buffer) =>
      request.write(chunk)
        ? Promise.resolve()
        : new Promise<void>((resolve) => {
            const done = () => {
              request.off('drain', done);
              request.off('close', done);
              resolve();
            };
            request.on('drain', done);
            request.on('close', done);
          });
    (async () => {
      await write(head);
      let sent = 0;
      for await (const chunk of file.body) {
        if (answered || request.destroyed) return;
        await write(chunk as Buffer);
        sent += (chunk as Buffer).length;
        if (options.abortAfterBytes !== undefined && sent >= options.abortAfterBytes) {
          await options.beforeAbort?.();
          request.destroy();
          resolve('aborted');
          return;
        }
      }
      request.end(tail);
    })().catch((error: unknown) => {
      if (!answered) reject(error);
    });
  });
}

const CHUNK_BYTES = 64 * 1024;
// Shared, never-mutated chunks: producing a large body makes no garbage of its own.
const PATTERNS = Array.from({ length: 8 }, (_, index) => Buffer.alloc(CHUNK_BYTES, index + 1));

/** `total` bytes in 64 KiB chunks, produced as they are read. */
export function generatedBytes(total: number): Readable {
  function* chunks(): Generator<Buffer> {
    for (let offset = 0, index = 0; offset < total; offset += CHUNK_BYTES, index++) {
      yield (PATTERNS[index % PATTERNS.length] as Buffer).subarray(0, total - offset);
    }
  }
  return Readable.from(chunks(), { objectMode: false });
}

/** Polls `check` until it returns true, or fails after `timeoutMs`. */
export async function eventually(check: () => Promise<boolean>, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** Counts media rows, across every project. */
export async function countMediaRows(t: TestServer): Promise<number> {
  const result = await t.db.query<{ count: number }>('select count(*)::int as count from media');
  return result.rows[0]?.count ?? 0;
}
