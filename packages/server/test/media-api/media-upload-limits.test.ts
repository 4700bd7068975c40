import { Readable } from 'node:stream';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  countMediaRows,
  DRIVERS,
  eventually,
  generatedBytes,
  type MediaTestServer,
  PNG,
  startMediaServer,
  streamUpload,
  upload,
  uploadOk,
} from './media-api-support.js';

const MiB = 1024 * 1024;
const MAX_UPLOAD = MiB;

/** A PNG (detected as image/png) of exactly `size` bytes. */
function pngOfSize(size: number): Buffer {
  return Buffer.concat([PNG, Buffer.alloc(size - PNG.length, 0x20)]);
}

describe.each(DRIVERS)('upload limits on the %s driver', (driver) => {
  let m: MediaTestServer;
  beforeAll(async () => {
    m = await startMediaServer(driver, { CMS_MAX_UPLOAD_BYTES: String(MAX_UPLOAD) });
  });
  afterAll(() => m?.close());

  async function setProjectSettings(settings: Record<string, unknown>) {
    await m.t.db.query('update projects set settings = $1 where slug = $2', [JSON.stringify(settings), 'default']);
  }

  async function expectNothingStored() {
    expect(await countMediaRows(m.t)).toBe(0);
    expect(await m.storedKeys()).toEqual([]);
  }

  afterEach(async () => {
    await setProjectSettings({});
    const listed = await m.t.request('GET', '/api/v1/media?limit=100');
    for (const asset of listed.body.data) await m.t.request('DELETE', `/api/v1/media/${asset.id}`);
  });

  it('accepts a file of exactly CMS_MAX_UPLOAD_BYTES', async () => {
    const asset = await uploadOk(m.t, { filename: 'exact.bin', content: Buffer.alloc(MAX_UPLOAD, 1) });
    expect(asset.sizeBytes).toBe(MAX_UPLOAD);
  });

  it('refuses one byte over CMS_MAX_UPLOAD_BYTES with 413 and leaves no row and no object', async () => {
    const response = await upload(m.t, { filename: 'over.bin', content: Buffer.alloc(MAX_UPLOAD + 1, 1) });
    expect(response.status).toBe(413);
    expect(response.body.error).toMatchObject({ code: 'PAYLOAD_TOO_LARGE', details: { maxBytes: MAX_UPLOAD } });
    await expectNothingStored();
  });

  it('refuses a chunked upload that runs over the limit while streaming', async () => {
    const result = await streamUpload(m.t, { filename: 'chunked.bin', body: generatedBytes(3 * MAX_UPLOAD) });
    expect(result).toMatchObject({ status: 413, body: { error: { code: 'PAYLOAD_TOO_LARGE' } } });
    await expectNothingStored();
  });

  it('answers a declared Content-Length over the limit before reading the body', async () => {
    const total = 64 * MiB;
    let produced = 0;
    async function* counted() {
      for await (const chunk of generatedBytes(total)) {
        produced += (chunk as Buffer).length;
        yield chunk as Buffer;
      }
    }
    const body = Readable.from(counted(), { objectMode: false });
    const result = await streamUpload(m.t, { filename: 'huge.bin', body, contentLength: total });
    expect(result).toMatchObject({ status: 413, body: { error: { code: 'PAYLOAD_TOO_LARGE' } } });
    expect(produced).toBeLessThan(total);
    await expectNothingStored();
  });

  it('limits images by the project setting mediaImageMaxBytes; other files are exempt', async () => {
    await setProjectSettings({ mediaImageMaxBytes: 1000 });
    const tooBig = await upload(m.t, { filename: 'big.png', content: pngOfSize(1001) });
    expect(tooBig.status).toBe(413);
    expect(tooBig.body.error.code).toBe('PAYLOAD_TOO_LARGE');
    expect(tooBig.body.error.message).toContain('mediaImageMaxBytes');
    expect(tooBig.body.error.details).toMatchObject({ maxBytes: 1000 });
    // Named .txt and sent as text/plain: still an image by its content, so still limited.
    const disguised = await upload(m.t, { filename: 'big.txt', content: pngOfSize(5000), contentType: 'text/plain' });
    expect(disguised.status).toBe(413);
    await expectNothingStored();

    expect((await uploadOk(m.t, { filename: 'fits.png', content: pngOfSize(1000) })).sizeBytes).toBe(1000);
    const text = await uploadOk(m.t, { filename: 'long.txt', content: 'x'.repeat(5000) });
    expect(text).toMatchObject({ category: 'document', sizeBytes: 5000 });
    const binary = await uploadOk(m.t, { filename: 'blob.bin', content: Buffer.alloc(200_000, 3) });
    expect(binary.sizeBytes).toBe(200_000);
  });

  it('keeps CMS_MAX_UPLOAD_BYTES when the image setting is larger, and ignores invalid settings', async () => {
    await setProjectSettings({ mediaImageMaxBytes: 10 * MAX_UPLOAD });
    expect((await upload(m.t, { filename: 'big.png', content: pngOfSize(MAX_UPLOAD + 1) })).status).toBe(413);
    for (const invalid of ['1000', -1, 0, 1.5, null, { bytes: 1 }]) {
      await setProjectSettings({ mediaImageMaxBytes: invalid });
      const asset = await uploadOk(m.t, { filename: 'fine.png', content: pngOfSize(2000) });
      expect(asset.sizeBytes).toBe(2000);
    }
  });

  it('leaves no row and no object when the client aborts mid-upload', async () => {
    const total = 12 * MiB;
    const aborting = await startMediaServer(driver);
    try {
      const result = await streamUpload(
        aborting.t,
        { filename: 'aborted.bin', body: generatedBytes(total), contentLength: total },
        {
          abortAfterBytes: 8 * MiB,
          beforeAbort: async () => {
            // fs: the upload is really under way, in a temp file; s3: a multipart upload has begun.
            if (driver === 'fs') await eventually(async () => (await aborting.storedKeys()).length === 1);
            else await new Promise((resolve) => setTimeout(resolve, 300));
          },
        },
      );
      expect(result).toBe('aborted');
      await eventually(async () => (await aborting.storedKeys()).length === 0);
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(await countMediaRows(aborting.t)).toBe(0);
      expect(await aborting.storedKeys()).toEqual([]);
      // The server carries on.
      expect((await uploadOk(aborting.t, { filename: 'after.txt', content: 'ok' })).sizeBytes).toBe(2);
    } finally {
      await aborting.close();
    }
  }, 60_000);
});
