/**
 * The image transform row of `npm run bench`: a typical photo (a 4000×3000 JPEG of noise, about what
 * a phone takes) uploaded to a server on PGlite, then `GET /api/v1/media/{id}/image?w=1200&format=webp`
 * the first time (transform, store) and again (stored variant). Reports the server's own time from
 * `Server-Timing` (dur), and the wall time seen by the client. Targets: cold under 400 ms, cached
 * under 10 ms server time. BENCH_IMAGES=off skips it; BENCH_IMAGE_RUNS (default 5) sets how many
 * fresh variants (widths 1200, 1201...) and cached reads are measured; the median is reported.
 */
import { join } from 'node:path';
import sharp from 'sharp';
import { createBenchDatabase } from './databases.mjs';
import { startCms } from './processes.mjs';
import { ENVIRONMENT, PROJECT, seedDatabase } from './seed.mjs';

export const IMAGE_COLD_TARGET_MS = 400;
export const IMAGE_CACHED_TARGET_MS = 10;

/** Is the row wanted? `on` (default) or `off`. */
export function imageRowEnabled(env = process.env) {
  const mode = env.BENCH_IMAGES || 'on';
  if (!['on', 'off'].includes(mode)) throw new Error(`BENCH_IMAGES must be on or off, got "${mode}"`);
  return mode === 'on';
}

const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? null;
};

/** One image request: status, the server's time (Server-Timing dur), the client's wall time. */
async function timedImage(server, headers, id, width) {
  const started = performance.now();
  const response = await fetch(`${server.url}/api/v1/media/${id}/image?w=${width}&format=webp`, { headers });
  await response.arrayBuffer();
  const wallMs = performance.now() - started;
  const timing = response.headers.get('server-timing') ?? '';
  const serverMs = Number(/dur=([\d.]+)/.exec(timing)?.[1] ?? Number.NaN);
  const cache = /desc="(\w+)"/.exec(timing)?.[1] ?? null;
  if (response.status !== 200) throw new Error(`image answered ${response.status}`);
  return { serverMs, wallMs, cache };
}

/** Runs the row; answers its result, or `{ error }` when it failed (the rest of the run stands). */
export async function runImageRow(env = process.env) {
  const runs = Number(env.BENCH_IMAGE_RUNS ?? 5);
  const database = await createBenchDatabase('pglite', { adminUrl: '', poolMax: 5 });
  let server = null;
  try {
    const db = await database.open();
    let seed;
    try {
      seed = await seedDatabase(db, { posts: 1, updatePoolSize: 1 });
    } finally {
      await db.close();
    }
    server = await startCms(database, {
      logLevel: 'warn',
      nodeOptions: [],
      logFile: join(database.dataDir, 'server.log'),
    });
    const headers = {
      authorization: `Bearer ${seed.apiKey}`,
      'x-cms-project': PROJECT,
      'x-cms-environment': ENVIRONMENT,
    };
    const photo = await sharp({
      create: { width: 4000, height: 3000, channels: 3, noise: { type: 'gaussian', mean: 128, sigma: 30 } },
    })
      .jpeg({ quality: 85 })
      .toBuffer();
    const form = new FormData();
    form.append('file', new Blob([photo], { type: 'image/jpeg' }), 'photo.jpg');
    const uploaded = await fetch(`${server.url}/api/v1/media/upload`, { method: 'POST', headers, body: form });
    if (uploaded.status !== 201) throw new Error(`upload answered ${uploaded.status}`);
    const { id } = (await uploaded.json()).data;
    // Warm up: the first transform of a process loads libvips' codecs.
    await timedImage(server, headers, id, 64);

    const cold = [];
    const cached = [];
    for (let run = 0; run < runs; run++) cold.push(await timedImage(server, headers, id, 1200 + run));
    for (let run = 0; run < runs * 4; run++) cached.push(await timedImage(server, headers, id, 1200));
    if (cold.some((entry) => entry.cache !== 'miss') || cached.some((entry) => entry.cache !== 'hit')) {
      throw new Error('expected misses for new widths and hits for a stored one');
    }
    return {
      photo: { width: 4000, height: 3000, bytes: photo.length },
      runs,
      coldServerMs: median(cold.map((entry) => entry.serverMs)),
      coldWallMs: median(cold.map((entry) => entry.wallMs)),
      cachedServerMs: median(cached.map((entry) => entry.serverMs)),
      cachedWallMs: median(cached.map((entry) => entry.wallMs)),
    };
  } catch (error) {
    return { error: error instanceof Error ? error.message.slice(0, 500) : String(error) };
  } finally {
    await server?.stop();
    await database.dispose();
  }
}

/** The markdown of the row. */
export function renderImageRow(result) {
  if (result.error) return `### Image transforms\n\nfailed: ${result.error}\n`;
  const f = (ms) => ms.toFixed(1);
  const mark = (ms, target) => (ms < target ? 'met' : 'MISSED');
  return [
    `### Image transforms (${result.photo.width}×${result.photo.height} JPEG, ${Math.round(result.photo.bytes / 1024)} KiB, to 1200 wide WebP; median of ${result.runs})`,
    '',
    '| | server (ms) | wall (ms) | target (server) |',
    '|---|---|---|---|',
    `| first transform | ${f(result.coldServerMs)} | ${f(result.coldWallMs)} | < ${IMAGE_COLD_TARGET_MS}: ${mark(result.coldServerMs, IMAGE_COLD_TARGET_MS)} |`,
    `| cached variant | ${f(result.cachedServerMs)} | ${f(result.cachedWallMs)} | < ${IMAGE_CACHED_TARGET_MS}: ${mark(result.cachedServerMs, IMAGE_CACHED_TARGET_MS)} |`,
    '',
  ].join('\n');
}
