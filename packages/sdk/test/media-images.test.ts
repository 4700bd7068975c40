/** `media.update`, `media.imageUrl` and `media.srcset` against a real server: the addresses answer with the sizes they name. */
import { createClient, imageUrl, srcset } from '@cms/sdk';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type SdkHarness, startSdkServer } from './sdk-fixtures.js';

let harness: SdkHarness;
beforeAll(async () => {
  harness = await startSdkServer();
});
afterAll(() => harness.server.close());

describe('media images', () => {
  it('edits alt and focal point, and builds image addresses that answer', async () => {
    const cms = harness.client();
    const jpeg = await sharp({ create: { width: 1000, height: 600, channels: 3, background: '#48c' } })
      .jpeg()
      .toBuffer();
    const asset = await cms.media.upload({ file: new Blob([jpeg], { type: 'image/jpeg' }), filename: 'sky.jpg' });
    expect([asset.width, asset.height]).toEqual([1000, 600]);
    const updated = await cms.media.update(asset.id, { alt: 'Sky', focalPoint: { x: 0.2, y: 0.4 } });
    expect(updated).toMatchObject({ alt: 'Sky', focalPoint: { x: 0.2, y: 0.4 } });

    const url = cms.media.imageUrl(asset, { w: 300, h: 200, format: 'png' });
    expect(url).toBe(`${harness.server.url}/api/v1/media/${asset.id}/image?w=300&h=200&format=png`);
    expect(imageUrl('https://cms.example.com/', asset.id, { preset: 'thumbnail' })).toBe(
      `https://cms.example.com/api/v1/media/${asset.id}/image?preset=thumbnail`,
    );
    // A browser sends no key: the preset address answers without one.
    const thumb = await fetch(cms.media.imageUrl(asset, { preset: 'thumbnail', format: 'jpeg' }));
    expect(thumb.status).toBe(200);
    const meta = await sharp(Buffer.from(await thumb.arrayBuffer())).metadata();
    expect([meta.format, meta.width, meta.height]).toEqual(['jpeg', 320, 320]);

    // Default presets, widths past the original's dropped (the original is 1000 wide).
    const set = cms.media.srcset(asset);
    const candidates = set.split(', ').map((candidate) => candidate.split(' '));
    expect(candidates.map(([, width]) => width)).toEqual(['640w', '1000w']);
    for (const [address, width] of candidates) {
      const response = await fetch(address as string);
      expect(response.status).toBe(200);
      const read = await sharp(Buffer.from(await response.arrayBuffer())).metadata();
      expect(`${read.width}w`).toBe(width);
    }
    expect(
      srcset('https://x.test', { id: 'a', width: null }, [{ w: 100 }, { preset: 'hero', width: 1600 }], {
        format: 'webp',
      }),
    ).toBe(
      'https://x.test/api/v1/media/a/image?w=100&format=webp 100w, https://x.test/api/v1/media/a/image?preset=hero&format=webp 1600w',
    );
    expect(() => srcset('https://x.test', { id: 'a' }, [{ preset: 'hero' }])).toThrow(/width/);
    void createClient;
  });
});
