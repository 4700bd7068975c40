/**
 * A full transform queue over HTTP (docs/api.md "Image transforms", "Memory"): with one slot and
 * nobody allowed to wait, a transform asked for while another runs is a 503 with `Retry-After`, and a
 * stored variant is served all the same (it needs no slot).
 */
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type MediaTestServer, startMediaServer, uploadOk } from './media-api-support.js';
import { fetchImage } from './media-image-support.js';

describe('image transforms when the queue is full', () => {
  let m: MediaTestServer;
  let photo: any;
  beforeAll(async () => {
    m = await startMediaServer('fs', { CMS_IMAGE_TRANSFORM_CONCURRENCY: '1', CMS_IMAGE_TRANSFORM_QUEUE: '0' });
    // Noise, so each transform takes long enough for the others to arrive while it runs.
    const noise = { type: 'gaussian' as const, mean: 128, sigma: 40 };
    const content = await sharp({ create: { width: 3000, height: 2000, channels: 3, background: '#000', noise } })
      .png({ compressionLevel: 1 })
      .toBuffer();
    photo = await uploadOk(m.t, { filename: 'noise.png', content });
  });
  afterAll(() => m?.close());

  it('refuses transforms past the queue with 503 and Retry-After, and still serves stored variants', async () => {
    const stored = await fetchImage(m.t, photo.id, { w: 100, format: 'webp' });
    expect(stored.status).toBe(200);

    // Distinct variants, so no two share a computation; the stored one asked for meanwhile.
    const answers = await Promise.all([
      ...[1201, 1202, 1203, 1204].map((w) => fetchImage(m.t, photo.id, { w, format: 'avif' })),
      fetchImage(m.t, photo.id, { w: 100, format: 'webp' }),
    ]);
    const busy = answers.slice(0, 4);
    const statuses = busy.map((answer) => answer.status);
    expect(statuses).toContain(200);
    expect(statuses).toContain(503);
    for (const answer of busy.filter((each) => each.status === 503)) {
      expect(answer.body.error.code).toBe('SERVICE_UNAVAILABLE');
      expect(answer.headers.get('retry-after')).toBe('2');
      // An error is not the image: nothing tells a cache to keep it.
      expect(answer.headers.get('cache-control') ?? '').not.toMatch(/max-age=[1-9]/);
      expect(answer.headers.get('etag')).toBeNull();
    }
    const again = answers[4];
    expect(again?.status).toBe(200);
    expect(again?.headers.get('server-timing')).toContain('hit');
  });
});
