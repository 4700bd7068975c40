/**
 * Ten concurrent transforms of 24-megapixel originals in a server process whose heap is limited to
 * 512 MiB: the transform queue keeps them from running all at once, so the process stays up, every
 * request is answered, and its peak resident memory stays under 512 MiB.
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureBuilt, prepareDataDir, type ServerProcess, startServerProcess } from '../reliability/server-process.js';
import { multipartBody } from './media-api-support.js';

const MiB = 1024 * 1024;
const LIMIT_BYTES = 512 * MiB;
const WIDTH = 6000;
const HEIGHT = 4000;

/** The process's peak resident set (VmHWM), in bytes. */
async function peakRss(pid: number): Promise<number> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8');
  const kb = /VmHWM:\s+(\d+) kB/.exec(status)?.[1];
  return Number(kb) * 1024;
}

describe('image transforms under a memory limit', () => {
  let dataDir: string;
  let server: ServerProcess;
  let key: string;
  const headers = () => ({
    authorization: `Bearer ${key}`,
    'x-cms-project': 'default',
    'x-cms-environment': 'production',
  });

  beforeAll(async () => {
    ensureBuilt();
    dataDir = await mkdtemp(path.join(tmpdir(), 'cms-image-memory-'));
    key = await prepareDataDir(dataDir);
    server = await startServerProcess({
      CMS_DATA_DIR: dataDir,
      NODE_OPTIONS: `--max-old-space-size=${LIMIT_BYTES / MiB}`,
      CMS_MEDIA_PURGE_INTERVAL_SECONDS: '0',
    });
  }, 240_000);
  afterAll(async () => {
    await server?.kill('SIGTERM');
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  });

  it('answers ten concurrent transforms of 24-megapixel images and stays under 512 MiB', async () => {
    // Two originals made here (never committed): a noisy JPEG, and a PNG that must be decoded whole.
    const noise = { type: 'gaussian' as const, mean: 128, sigma: 40 };
    const jpeg = await sharp({ create: { width: WIDTH, height: HEIGHT, channels: 3, background: '#000', noise } })
      .jpeg({ quality: 80 })
      .toBuffer();
    const png = await sharp({ create: { width: WIDTH, height: HEIGHT, channels: 3, background: '#3a7' } })
      .png()
      .toBuffer();
    const ids: string[] = [];
    for (const [name, content] of [
      ['big.jpg', jpeg],
      ['big.png', png],
    ] as const) {
      const { contentType, body } = multipartBody([{ name: 'file', filename: name, content }]);
      const response = await fetch(`${server.url}/api/v1/media/upload`, {
        method: 'POST',
        headers: { ...headers(), 'content-type': contentType },
        body,
      });
      expect(response.status).toBe(201);
      const asset = ((await response.json()) as { data: { id: string; width: number; height: number } }).data;
      expect([asset.width, asset.height]).toEqual([WIDTH, HEIGHT]);
      ids.push(asset.id);
    }

    // Ten distinct variants (no two share a computation), all asked for at once.
    const answers = await Promise.all(
      Array.from({ length: 10 }, async (_, index) => {
        const id = ids[index % 2] as string;
        const response = await fetch(`${server.url}/api/v1/media/${id}/image?w=${800 + index}&format=webp`, {
          headers: headers(),
        });
        return { status: response.status, bytes: Buffer.from(await response.arrayBuffer()) };
      }),
    );
    expect(answers.map((answer) => answer.status)).toEqual(Array(10).fill(200));
    for (const [index, answer] of answers.entries()) {
      expect((await sharp(answer.bytes).metadata()).width).toBe(800 + index);
    }
    const health = await fetch(`${server.url}/healthz`);
    expect(health.status).toBe(200);
    expect(server.child.exitCode).toBeNull();
    const peak = await peakRss(server.child.pid as number);
    expect(peak).toBeLessThan(LIMIT_BYTES);
  }, 240_000);
});
