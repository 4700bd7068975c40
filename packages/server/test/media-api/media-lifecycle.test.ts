import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  DRIVERS,
  fileUrl,
  type MediaTestServer,
  PNG,
  startMediaServer,
  upload,
  uploadOk,
} from './media-api-support.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

describe.each(DRIVERS)('media lifecycle on the %s driver', (driver) => {
  let m: MediaTestServer;
  beforeAll(async () => {
    m = await startMediaServer(driver);
  });
  afterAll(() => m?.close());

  it('uploads, lists, gets, serves and deletes a file', async () => {
    const before = Date.now();
    const response = await upload(m.t, { filename: 'pixel.png', content: PNG, contentType: 'image/png' });
    expect(response.status).toBe(201);
    const asset = response.body.data;
    expect(Object.keys(asset).sort()).toEqual(
      [
        'alt',
        'category',
        'environment',
        'focalPoint',
        'height',
        'filename',
        'id',
        'mimeType',
        'project',
        'sizeBytes',
        'uploadedAt',
        'uploadedBy',
        'url',
        'width',
      ].sort(),
    );
    expect(asset).toMatchObject({
      project: 'default',
      environment: 'production',
      filename: 'pixel.png',
      mimeType: 'image/png',
      category: 'image',
      sizeBytes: PNG.length,
    });
    expect(asset.id).toMatch(UUID);
    expect(asset.uploadedBy).toMatch(UUID);
    expect(new Date(asset.uploadedAt).toISOString()).toBe(asset.uploadedAt);
    expect(new Date(asset.uploadedAt).getTime()).toBeGreaterThanOrEqual(before - 1000);

    // The url is {CMS_PUBLIC_URL}/media/<projectId>/<environmentId>/<mediaId>/<storageName>.
    const url = new URL(asset.url);
    expect(url.origin).toBe(m.t.config.publicUrl);
    const [, prefix, projectId, environmentId, mediaId, name] = url.pathname.split('/');
    expect(prefix).toBe('media');
    expect(projectId).toMatch(UUID);
    expect(environmentId).toMatch(UUID);
    expect(mediaId).toBe(asset.id);
    expect(name).toBe('pixel.png');
    expect(await m.storedKeys()).toEqual([`${projectId}/${environmentId}/${asset.id}/pixel.png`]);

    const listed = await m.t.request('GET', '/api/v1/media');
    expect(listed.status).toBe(200);
    expect(listed.body).toEqual({ data: [asset], pagination: { total: 1, limit: 30, offset: 0, hasMore: false } });

    const got = await m.t.request('GET', `/api/v1/media/${asset.id}`);
    expect(got.status).toBe(200);
    expect(got.body).toEqual({ data: asset });

    // Served without any credentials or routing headers, as an <img src> would fetch it.
    const served = await fetch(fileUrl(m.t, asset));
    expect(served.status).toBe(200);
    expect(served.headers.get('content-type')).toBe('image/png');
    expect(served.headers.get('content-length')).toBe(String(PNG.length));
    expect(Buffer.from(await served.arrayBuffer()).equals(PNG)).toBe(true);

    const deleted = await m.t.request('DELETE', `/api/v1/media/${asset.id}`);
    expect(deleted.status).toBe(200);
    expect(deleted.body).toEqual({ data: { deleted: true, id: asset.id } });

    expect((await fetch(fileUrl(m.t, asset))).status).toBe(404);
    expect((await m.t.request('GET', `/api/v1/media/${asset.id}`)).status).toBe(404);
    expect((await m.t.request('DELETE', `/api/v1/media/${asset.id}`)).body.error.code).toBe('NOT_FOUND');
    expect((await m.t.request('GET', '/api/v1/media')).body.pagination.total).toBe(0);
    expect(await m.storedKeys()).toEqual([]);
  });

  it('records media.uploaded in the outbox with the exact payload', async () => {
    const asset = await uploadOk(m.t, { filename: 'notes.txt', content: 'some notes\n', contentType: 'text/plain' });
    const { rows } = await m.t.db.query<{ type: string; payload: any }>(
      `select type, payload from outbox_events where payload -> 'media' ->> 'id' = $1`,
      [asset.id],
    );
    expect(rows).toHaveLength(1);
    const [event] = rows;
    expect(event?.type).toBe('media.uploaded');
    expect(event?.payload).toEqual({
      event: 'media.uploaded',
      timestamp: expect.any(String),
      project: 'default',
      environment: 'production',
      media: {
        id: asset.id,
        filename: 'notes.txt',
        mimeType: 'text/plain',
        sizeBytes: 11,
        url: asset.url,
      },
      user: { id: asset.uploadedBy, email: '' },
    });
    expect(new Date(event?.payload.timestamp).toISOString()).toBe(event?.payload.timestamp);
    await m.t.request('DELETE', `/api/v1/media/${asset.id}`);
  });

  it('stores a file of several MiB intact', async () => {
    const content = Buffer.alloc(6 * 1024 * 1024 + 17);
    for (let i = 0; i < content.length; i++) content[i] = (i * 7) % 251;
    const asset = await uploadOk(m.t, { filename: 'big.bin', content });
    expect(asset).toMatchObject({ sizeBytes: content.length, mimeType: 'application/octet-stream', category: 'other' });
    const served = await fetch(fileUrl(m.t, asset));
    expect(Buffer.from(await served.arrayBuffer()).equals(content)).toBe(true);
    await m.t.request('DELETE', `/api/v1/media/${asset.id}`);
  });
});
