import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DRIVERS, type MediaTestServer, startMediaServer, uploadOk } from './media-api-support.js';
import { fetchImage, plainJpeg } from './media-image-support.js';

describe.each(DRIVERS)('image variants on the %s driver', (driver) => {
  let m: MediaTestServer;
  beforeAll(async () => {
    m = await startMediaServer(driver);
  });
  afterAll(() => m?.close());

  it('keeps variants in media storage beside the originals and deletes them with the asset', async () => {
    const asset = await uploadOk(m.t, { filename: 'photo.jpg', content: await plainJpeg(640, 480) });
    const keep = await uploadOk(m.t, { filename: 'other.jpg', content: await plainJpeg(320, 240) });
    const small = await fetchImage(m.t, asset.id, { w: 160, format: 'webp' });
    const thumb = await fetchImage(m.t, asset.id, { preset: 'thumbnail', format: 'png' }, { key: null });
    const other = await fetchImage(m.t, keep.id, { w: 100, format: 'jpeg' });
    expect([small.status, thumb.status, other.status]).toEqual([200, 200, 200]);
    expect((await sharp(small.bytes).metadata()).width).toBe(160);

    const prefix = `variants/`;
    const variantsOf = async (id: string) =>
      (await m.storedKeys()).filter((key) => key.startsWith(prefix) && key.split('/')[3] === id);
    expect(await variantsOf(asset.id)).toHaveLength(2);
    expect(await variantsOf(keep.id)).toHaveLength(1);
    // Served from storage the second time.
    const again = await fetchImage(m.t, asset.id, { w: 160, format: 'webp' });
    expect(again.headers.get('server-timing')).toContain('hit');
    expect(again.bytes.equals(small.bytes)).toBe(true);

    expect((await m.t.request('DELETE', `/api/v1/media/${asset.id}`)).status).toBe(200);
    expect(await variantsOf(asset.id)).toEqual([]);
    expect(await variantsOf(keep.id)).toHaveLength(1);
    const queued = await m.t.database.db.query('select storage_key from media_purge_queue');
    expect(queued.rows).toEqual([]);
    const gone = await fetchImage(m.t, asset.id, { preset: 'thumbnail' }, { key: null });
    expect(gone.status).toBe(404);
  });
});
