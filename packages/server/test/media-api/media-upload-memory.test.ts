import { Readable } from 'node:stream';
import { setTimeout as sleep } from 'node:timers/promises';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  DRIVERS,
  fileUrl,
  generatedBytes,
  type MediaTestServer,
  startMediaServer,
  streamUpload,
  uploadOk,
} from './media-api-support.js';

const MiB = 1024 * 1024;
const TOTAL = 50 * MiB;
/**
 * Growth allowed while 50 MiB pass through the server (which runs in this process): the S3 driver
 * holds about four 5 MiB parts, the rest is socket and parser buffers. Buffering the file whole
 * would exceed it.
 */
const MAX_GROWTH = 40 * MiB;
/** A forced full collection takes ~100 ms here (PGlite's heap is large): sample no faster. */
const SAMPLE_EVERY_MS = 250;

// V8 lets Buffer memory grow a long way before collecting; forcing collection makes RSS measure
// what is retained rather than garbage not yet collected (as the storage contract suite does).
const collectGarbage = (() => {
  setFlagsFromString('--expose-gc');
  return runInNewContext('gc') as () => void;
})();

/**
 * The upload body, paced to at most 10 MiB/s: a server holding the file in memory would then hold
 * most of it across several samples, instead of for a moment between two of them.
 */
function pacedBody(total: number): Readable {
  async function* chunks() {
    let sent = 0;
    let pauseAt = MiB;
    for await (const chunk of generatedBytes(total)) {
      yield chunk as Buffer;
      sent += (chunk as Buffer).length;
      if (sent >= pauseAt) {
        pauseAt += MiB;
        await sleep(100);
      }
    }
  }
  return Readable.from(chunks(), { objectMode: false });
}

describe.each(DRIVERS)('a 50 MB upload on the %s driver', (driver) => {
  let m: MediaTestServer;
  beforeAll(async () => {
    m = await startMediaServer(driver);
  });
  afterAll(() => m?.close());

  it('streams to storage with the server memory staying flat', async () => {
    // Warm up: first use loads code and opens connections; that is not what is measured.
    await uploadOk(m.t, { filename: 'warm-up.bin', content: Buffer.alloc(64 * 1024, 1) });
    collectGarbage();
    const baseline = process.memoryUsage().rss;
    let peak = baseline;
    let samples = 0;
    const sampler = setInterval(() => {
      collectGarbage();
      peak = Math.max(peak, process.memoryUsage().rss);
      samples++;
    }, SAMPLE_EVERY_MS);
    let result: Awaited<ReturnType<typeof streamUpload>>;
    try {
      result = await streamUpload(m.t, { filename: 'large.bin', body: pacedBody(TOTAL), contentLength: TOTAL });
    } finally {
      clearInterval(sampler);
    }
    collectGarbage();
    peak = Math.max(peak, process.memoryUsage().rss);
    expect(result).toMatchObject({ status: 201, body: { data: { sizeBytes: TOTAL } } });
    expect(samples).toBeGreaterThanOrEqual(3);
    expect(peak - baseline).toBeLessThan(MAX_GROWTH);

    // It reads back whole, streamed too.
    const asset = result === 'aborted' ? null : result.body.data;
    const served = await fetch(fileUrl(m.t, asset));
    expect(served.headers.get('content-length')).toBe(String(TOTAL));
    let received = 0;
    for await (const chunk of served.body ?? []) received += (chunk as Uint8Array).length;
    expect(received).toBe(TOTAL);
  }, 120_000);
});
