import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type MediaTestServer, startMediaServer, uploadOk } from './media-api-support.js';
import { bandedPng, fetchImage, nearestBand, pixelAt, plainJpeg, pngBomb } from './media-image-support.js';

describe('image transforms', () => {
  let m: MediaTestServer;
  let photo: any;
  let banded: any;
  beforeAll(async () => {
    m = await startMediaServer('fs');
    photo = await uploadOk(m.t, { filename: 'photo.jpg', content: await plainJpeg(1200, 800) });
    banded = await uploadOk(m.t, { filename: 'bands.png', content: await bandedPng(400, 100) });
  });
  afterAll(() => m?.close());

  it('reads the pixel size at upload and keeps alt and the focal point', async () => {
    expect(photo).toMatchObject({ width: 1200, height: 800, alt: '', focalPoint: null });
    const patched = await m.t.request('PATCH', `/api/v1/media/${photo.id}`, {
      body: { alt: 'A blue sky', focalPoint: { x: 0.25, y: 0.75 } },
    });
    expect(patched.status).toBe(200);
    expect(patched.body.data).toMatchObject({ alt: 'A blue sky', focalPoint: { x: 0.25, y: 0.75 }, width: 1200 });
    const reset = await m.t.request('PATCH', `/api/v1/media/${photo.id}`, { body: { focalPoint: null } });
    expect(reset.body.data).toMatchObject({ alt: 'A blue sky', focalPoint: null });
    const read = await m.t.request('GET', `/api/v1/media/${photo.id}`);
    expect(read.body.data).toMatchObject({ alt: 'A blue sky', focalPoint: null });
  });

  it('refuses a focal point outside 0..1 and an empty change, field by field', async () => {
    const outside = await m.t.request('PATCH', `/api/v1/media/${photo.id}`, { body: { focalPoint: { x: 1.5, y: 0 } } });
    expect(outside.status).toBe(400);
    expect(outside.body.error.code).toBe('INVALID_INPUT');
    expect(Object.keys(outside.body.error.details.fields)).toContain('body.focalPoint.x');
    const empty = await m.t.request('PATCH', `/api/v1/media/${photo.id}`, { body: {} });
    expect(empty.status).toBe(400);
    const missing = await m.t.request('PATCH', '/api/v1/media/00000000-0000-4000-8000-000000000000', {
      body: { alt: 'x' },
    });
    expect(missing.status).toBe(404);
  });

  it('resizes and encodes to the asked size and format', async () => {
    const cases: Array<{
      query: Record<string, string | number>;
      format: string;
      width: number;
      height: number;
      type: string;
    }> = [
      { query: { w: 300, format: 'webp' }, format: 'webp', width: 300, height: 200, type: 'image/webp' },
      { query: { h: 100, format: 'jpeg', q: 60 }, format: 'jpeg', width: 150, height: 100, type: 'image/jpeg' },
      { query: { w: 200, h: 200, format: 'png' }, format: 'png', width: 200, height: 200, type: 'image/png' },
      {
        query: { w: 200, h: 200, fit: 'inside', format: 'avif' },
        format: 'heif',
        width: 200,
        height: 133,
        type: 'image/avif',
      },
      {
        query: { w: 200, h: 200, fit: 'contain', format: 'png' },
        format: 'png',
        width: 200,
        height: 200,
        type: 'image/png',
      },
      // inside never enlarges
      { query: { w: 3000, format: 'webp' }, format: 'webp', width: 1200, height: 800, type: 'image/webp' },
    ];
    for (const { query, format, width, height, type } of cases) {
      const answer = await fetchImage(m.t, photo.id, query);
      expect(answer.status, JSON.stringify(query)).toBe(200);
      expect(answer.headers.get('content-type')).toBe(type);
      const meta = await sharp(answer.bytes).metadata();
      expect({ format: meta.format, width: meta.width, height: meta.height }, JSON.stringify(query)).toEqual({
        format,
        width,
        height,
      });
    }
  });

  it('encodes at the quality asked for', async () => {
    // Noise, so the encoder has detail to keep or drop.
    const noise = { type: 'gaussian' as const, mean: 128, sigma: 40 };
    const content = await sharp({ create: { width: 400, height: 300, channels: 3, background: '#000', noise } })
      .png()
      .toBuffer();
    const noisy = await uploadOk(m.t, { filename: 'noise.png', content });
    for (const format of ['jpeg', 'webp', 'avif']) {
      const low = await fetchImage(m.t, noisy.id, { w: 300, format, q: 10 });
      const high = await fetchImage(m.t, noisy.id, { w: 300, format, q: 90 });
      expect([low.status, high.status], format).toEqual([200, 200]);
      expect(low.headers.get('etag'), format).not.toBe(high.headers.get('etag'));
      expect(low.bytes.length * 2, format).toBeLessThan(high.bytes.length);
    }
  });

  it('picks AVIF or WebP from Accept for format=auto, and says it varies', async () => {
    const avif = await fetchImage(
      m.t,
      photo.id,
      { w: 120, format: 'auto' },
      { headers: { accept: 'image/avif,image/webp,*/*' } },
    );
    expect(avif.headers.get('content-type')).toBe('image/avif');
    expect(avif.headers.get('vary')).toMatch(/accept/i);
    const webp = await fetchImage(m.t, photo.id, { w: 120 }, { headers: { accept: 'image/webp,*/*' } });
    expect(webp.headers.get('content-type')).toBe('image/webp');
    expect((await sharp(webp.bytes).metadata()).format).toBe('webp');
    expect(webp.headers.get('etag')).not.toBe(avif.headers.get('etag'));
    const explicit = await fetchImage(m.t, photo.id, { w: 120, format: 'webp' });
    expect(explicit.headers.get('vary')).toBeNull();
  });

  it('crops around the focal point', async () => {
    const centreBand = async () => {
      const answer = await fetchImage(m.t, banded.id, { w: 100, h: 100, format: 'png' });
      expect(answer.status).toBe(200);
      return nearestBand(await pixelAt(answer.bytes, 50, 50));
    };
    const setFocal = (focalPoint: { x: number; y: number } | null) =>
      m.t.request('PATCH', `/api/v1/media/${banded.id}`, { body: { focalPoint } });

    // Centred: the 100px window spans x 150..250, the green/blue edge; its left edge is green.
    const centred = await fetchImage(m.t, banded.id, { w: 100, h: 100, format: 'png' });
    expect(nearestBand(await pixelAt(centred.bytes, 10, 50))).toBe(1);
    expect(nearestBand(await pixelAt(centred.bytes, 90, 50))).toBe(2);
    await setFocal({ x: 0.1, y: 0.5 });
    expect(await centreBand()).toBe(0);
    await setFocal({ x: 0.95, y: 0.5 });
    expect(await centreBand()).toBe(3);
    await setFocal({ x: 0.6, y: 0.5 });
    expect(await centreBand()).toBe(2);
    await setFocal(null);
  });

  it('computes a variant once, then serves it stored, with a strong ETag and long caching', async () => {
    const first = await fetchImage(m.t, photo.id, { w: 333, format: 'webp' });
    expect(first.headers.get('server-timing')).toContain('miss');
    const etag = first.headers.get('etag') ?? '';
    expect(etag).toMatch(/^"[0-9a-f]{32}"$/);
    expect(first.headers.get('cache-control')).toMatch(/public, max-age=\d{5,}/);
    const second = await fetchImage(m.t, photo.id, { w: 333, format: 'webp' });
    expect(second.headers.get('server-timing')).toContain('hit');
    expect(second.headers.get('etag')).toBe(etag);
    expect(second.bytes.equals(first.bytes)).toBe(true);
    const revalidated = await fetchImage(
      m.t,
      photo.id,
      { w: 333, format: 'webp' },
      { headers: { 'if-none-match': etag } },
    );
    expect(revalidated.status).toBe(304);
    expect(revalidated.bytes.length).toBe(0);
    expect((await m.storedKeys()).filter((key) => key.startsWith('variants/')).length).toBeGreaterThan(0);
  });

  it('computes a variant asked for by many at once a single time', async () => {
    const answers = await Promise.all(
      Array.from({ length: 6 }, () => fetchImage(m.t, photo.id, { w: 517, format: 'jpeg' })),
    );
    expect(answers.map((answer) => answer.status)).toEqual([200, 200, 200, 200, 200, 200]);
    const outcomes = answers.map((answer) => /desc="(\w+)"/.exec(answer.headers.get('server-timing') ?? '')?.[1]);
    expect(outcomes.filter((outcome) => outcome === 'miss')).toHaveLength(1);
    expect(new Set(answers.map((answer) => answer.bytes.toString('base64'))).size).toBe(1);
  });

  it('serves presets without credentials and free sizes only with media:read', async () => {
    const preset = await fetchImage(m.t, photo.id, { preset: 'thumbnail' }, { key: null });
    expect(preset.status).toBe(200);
    const meta = await sharp(preset.bytes).metadata();
    expect([meta.width, meta.height]).toEqual([320, 320]);
    const withFormat = await fetchImage(m.t, photo.id, { preset: 'small', format: 'jpeg' }, { key: null });
    expect((await sharp(withFormat.bytes).metadata()).width).toBe(640);

    const anonymous = await fetchImage(m.t, photo.id, { w: 100 }, { key: null });
    expect(anonymous.status).toBe(401);
    expect(anonymous.body.error.code).toBe('UNAUTHORIZED');
    expect(anonymous.body.error.details.fields).toHaveProperty('preset');

    const writerOnly = await m.t.createKey({ scopes: ['content:read'] });
    const forbidden = await fetchImage(m.t, photo.id, { w: 100 }, { key: writerOnly });
    expect(forbidden.status).toBe(403);
    expect(forbidden.body.error.details.missing).toEqual(['media:read']);
    const reader = await m.t.createKey({ scopes: ['media:read'] });
    expect((await fetchImage(m.t, photo.id, { w: 100 }, { key: reader })).status).toBe(200);
  });

  it('answers bad parameters with the error envelope, field by field', async () => {
    const cases: Array<[Record<string, string | number>, string, string]> = [
      [{ w: 0 }, 'INVALID_QUERY_PARAM', 'w'],
      [{ w: 'wide' }, 'INVALID_QUERY_PARAM', 'w'],
      [{ w: 100, fit: 'stretch' }, 'INVALID_QUERY_PARAM', 'fit'],
      [{ format: 'gif' }, 'INVALID_QUERY_PARAM', 'format'],
      [{ q: 101 }, 'INVALID_QUERY_PARAM', 'q'],
      [{ w: 5000, h: 10 }, 'INVALID_QUERY_PARAM', 'w'],
      [{ preset: 'nope' }, 'INVALID_QUERY_PARAM', 'preset'],
      [{ preset: 'thumbnail', w: 10 }, 'INVALID_QUERY_PARAM', 'w'],
      [{ width: 10 }, 'INVALID_QUERY_PARAM', 'width'],
    ];
    for (const [query, code, field] of cases) {
      const answer = await fetchImage(m.t, photo.id, query);
      expect(answer.status, JSON.stringify(query)).toBe(400);
      expect(answer.body.error.code, JSON.stringify(query)).toBe(code);
      expect(Object.keys(answer.body.error.details?.fields ?? {}), JSON.stringify(query)).toContain(field);
    }
    const unknown = await fetchImage(
      m.t,
      '00000000-0000-4000-8000-000000000000',
      { preset: 'thumbnail' },
      { key: null },
    );
    expect(unknown.status).toBe(404);
    const text = await uploadOk(m.t, { filename: 'notes.txt', content: 'hello' });
    const notImage = await fetchImage(m.t, text.id, { w: 10 });
    expect(notImage.status).toBe(422);
    expect(notImage.body.error.code).toBe('IMAGE_NOT_TRANSFORMABLE');
  });

  it('refuses a decompression bomb from its header, before decoding', async () => {
    const bomb = await uploadOk(m.t, { filename: 'bomb.png', content: pngBomb(30_000, 30_000) });
    expect([bomb.width, bomb.height]).toEqual([30_000, 30_000]);
    const refused = await fetchImage(m.t, bomb.id, { preset: 'thumbnail' }, { key: null });
    expect(refused.status).toBe(422);
    expect(refused.body.error).toMatchObject({
      code: 'IMAGE_TOO_LARGE',
      details: { pixels: 900_000_000, maxInputPixels: 50_000_000 },
    });
    // Within the pixel limit but with its pixel data missing: not transformable, never a 500.
    const truncated = await uploadOk(m.t, { filename: 'broken.png', content: pngBomb(2000, 2000) });
    const broken = await fetchImage(m.t, truncated.id, { preset: 'thumbnail' }, { key: null });
    expect(broken.status).toBe(422);
    expect(broken.body.error.code).toBe('IMAGE_NOT_TRANSFORMABLE');
    // A PNG with a bad checksum but all its pixels, which browsers show, is transformed too.
    const damaged = Buffer.from(
      'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR4nGMAAQAABQABDQottAAAAABJRU5ErkJggg==',
      'base64',
    );
    const shown = await uploadOk(m.t, { filename: 'dot.png', content: damaged });
    const dot = await fetchImage(m.t, shown.id, { preset: 'thumbnail', format: 'png' }, { key: null });
    expect(dot.status).toBe(200);
    expect((await sharp(dot.bytes).metadata()).width).toBe(320);
  });

  it('applies the presets and limits of the project settings', async () => {
    const put = await m.t.request('PUT', '/api/v1/settings', {
      body: {
        mediaImageMaxBytes: null,
        mediaImagePresets: { card: { w: 64, h: 48, fit: 'cover', format: 'jpeg', q: 70 } },
        mediaImageMaxDimension: 800,
        mediaImageMaxInputPixels: 1_000_000,
      },
    });
    expect(put.status).toBe(200);
    expect(put.body.data).toMatchObject({ mediaImageMaxDimension: 800, mediaImageMaxInputPixels: 1_000_000 });
    try {
      const card = await fetchImage(m.t, banded.id, { preset: 'card' }, { key: null });
      expect(card.status).toBe(200);
      const meta = await sharp(card.bytes).metadata();
      expect([meta.format, meta.width, meta.height]).toEqual(['jpeg', 64, 48]);
      expect(
        (await fetchImage(m.t, banded.id, { preset: 'thumbnail' }, { key: null })).body.error.details.fields,
      ).toHaveProperty('preset');
      expect((await fetchImage(m.t, banded.id, { w: 801 })).status).toBe(400);
      // 1200×800 = 960 000 pixels passes; a bigger original is refused before decoding.
      const big = await uploadOk(m.t, { filename: 'big.jpg', content: await plainJpeg(1500, 1000) });
      const refused = await fetchImage(m.t, big.id, { w: 100 });
      expect(refused.status).toBe(422);
      expect(refused.body.error).toMatchObject({
        code: 'IMAGE_TOO_LARGE',
        details: { pixels: 1_500_000, maxInputPixels: 1_000_000 },
      });
      // Left out of a PUT, the image settings keep their values.
      const kept = await m.t.request('PUT', '/api/v1/settings', { body: { mediaImageMaxBytes: null } });
      expect(kept.body.data.mediaImageMaxDimension).toBe(800);
    } finally {
      await m.t.request('PUT', '/api/v1/settings', {
        body: {
          mediaImageMaxBytes: null,
          mediaImagePresets: null,
          mediaImageMaxDimension: null,
          mediaImageMaxInputPixels: null,
        },
      });
    }
  });
});
