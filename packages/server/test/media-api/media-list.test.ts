import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type MediaTestServer, PNG, startMediaServer, uploadOk } from './media-api-support.js';

let m: MediaTestServer;
let otherKey: string;
const assets: Record<string, any> = {};

const FLAC = Buffer.concat([Buffer.from('fLaC'), Buffer.alloc(64, 0)]);
const MP4 = Buffer.concat([Buffer.from([0, 0, 0, 0x18]), Buffer.from('ftypmp42'), Buffer.alloc(12, 0)]);
const ZIP = Buffer.concat([Buffer.from([0x50, 0x4b, 0x03, 0x04, 0x14, 0, 0, 0]), Buffer.alloc(40, 0)]);

// name -> [content, uploaded at, uploaded by the other key?]
const FIXTURES: Record<string, [string | Buffer, string, boolean]> = {
  'apple.png': [PNG, '2026-01-09T23:59:59.999Z', false],
  'Banana.pdf': ['%PDF-1.4 banana', '2026-01-10T00:00:00.000Z', false],
  'cherry.flac': [FLAC, '2026-01-10T12:00:00.000Z', true],
  'date.mp4': [MP4, '2026-01-10T23:59:59.999Z', false],
  'elder.zip': [ZIP, '2026-01-11T00:00:00.000Z', true],
  'fig.bin': [Buffer.from([0, 1, 2, 3, 0, 1, 2, 3, 0]), '2026-01-12T08:00:00.000Z', false],
  'a_b.txt': ['underscore', '2026-02-01T00:00:00.000Z', false],
  'axb.txt': ['x marks', '2026-02-01T00:00:00.000Z', false],
  'a%b.txt': ['percent', '2026-02-01T00:00:00.000Z', false],
  'back\\slash.txt': ['backslash', '2026-02-01T00:00:00.000Z', false],
  'UPPER CASE.TXT': ['shouting', '2026-02-02T00:00:00.000Z', false],
};

beforeAll(async () => {
  m = await startMediaServer('fs');
  otherKey = await m.t.createKey();
  for (const [name, [content, uploadedAt, byOther]] of Object.entries(FIXTURES)) {
    const asset = await uploadOk(m.t, { filename: name, content }, byOther ? { key: otherKey } : {});
    await m.t.db.query('update media set uploaded_at = $2 where id = $1', [asset.id, uploadedAt]);
    assets[name] = { ...asset, uploadedAt };
  }
});
afterAll(() => m?.close());

async function list(query: string) {
  const response = await m.t.request('GET', `/api/v1/media${query ? `?${query}` : ''}`);
  if (response.status !== 200) throw new Error(`${response.status} ${response.text}`);
  return response.body;
}

async function names(query: string): Promise<string[]> {
  return (await list(query)).data.map((asset: any) => asset.filename);
}

async function expectInvalid(query: string, field?: string) {
  const response = await m.t.request('GET', `/api/v1/media?${query}`);
  expect(response.status, query).toBe(400);
  expect(response.body.error.code, query).toBe('INVALID_QUERY_PARAM');
  if (field) expect(Object.keys(response.body.error.details.fields ?? {}), query).toContain(field);
}

/** Orders by a key, then by id in the same direction: the service's tie-break. */
function byKeyThenId(key: (asset: any) => string | number, order: 'asc' | 'desc') {
  const sign = order === 'asc' ? 1 : -1;
  return Object.values(assets)
    .sort((a, b) => {
      const [x, y] = [key(a), key(b)];
      if (x !== y) return (x < y ? -1 : 1) * sign;
      return (a.id < b.id ? -1 : 1) * sign;
    })
    .map((asset) => asset.filename);
}

describe('media list sorting and pagination', () => {
  it('sorts by uploadedAt, newest first, 30 per page by default', async () => {
    const body = await list('');
    expect(body.pagination).toEqual({ total: 11, limit: 30, offset: 0, hasMore: false });
    expect(body.data.map((a: any) => a.filename)).toEqual(byKeyThenId((a) => a.uploadedAt, 'desc'));
    expect(body.data[0].uploadedAt).toBe('2026-02-02T00:00:00.000Z');
    expect(await names('sort=uploadedAt&order=asc')).toEqual(byKeyThenId((a) => a.uploadedAt, 'asc'));
  });

  it('breaks ties by id, so pages never repeat or skip an item', async () => {
    const ties = byKeyThenId((a) => a.uploadedAt, 'desc').slice(1, 5);
    expect(ties.map((name) => assets[name].uploadedAt)).toEqual(Array(4).fill('2026-02-01T00:00:00.000Z'));
    const paged: string[] = [];
    for (let offset = 0; offset < 11; offset += 2) {
      const page = await list(`limit=2&offset=${offset}`);
      expect(page.pagination).toEqual({ total: 11, limit: 2, offset, hasMore: offset + 2 < 11 });
      paged.push(...page.data.map((a: any) => a.filename));
    }
    expect(paged).toEqual(await names(''));
  });

  it('sorts by filename case-insensitively, ascending by default', async () => {
    const ascending = byKeyThenId((a) => a.filename.toLowerCase(), 'asc');
    expect(await names('sort=filename')).toEqual(ascending);
    expect(ascending.slice(0, 4)).toEqual(['a%b.txt', 'a_b.txt', 'apple.png', 'axb.txt']);
    expect(await names('sort=filename&order=desc')).toEqual(byKeyThenId((a) => a.filename.toLowerCase(), 'desc'));
  });

  it('sorts by sizeBytes, largest first by default', async () => {
    expect(await names('sort=sizeBytes')).toEqual(byKeyThenId((a) => a.sizeBytes, 'desc'));
    expect(await names('sort=sizeBytes&order=asc')).toEqual(byKeyThenId((a) => a.sizeBytes, 'asc'));
  });

  it('pages with limit and offset', async () => {
    const all = await names('');
    const page = await list('limit=3&offset=3');
    expect(page.data.map((a: any) => a.filename)).toEqual(all.slice(3, 6));
    expect(page.pagination).toEqual({ total: 11, limit: 3, offset: 3, hasMore: true });
    expect((await list('limit=100')).data).toHaveLength(11);
    const past = await list('offset=50');
    expect(past).toEqual({ data: [], pagination: { total: 11, limit: 30, offset: 50, hasMore: false } });
  });
});

describe('media list filters', () => {
  it('searches filenames case-insensitively and ignores a blank q', async () => {
    expect(await names('q=APPLE')).toEqual(['apple.png']);
    expect(await names('q=upper%20c')).toEqual(['UPPER CASE.TXT']);
    expect(await names('q=an&sort=filename')).toEqual(['Banana.pdf']);
    expect((await list('q=')).pagination.total).toBe(11);
    expect((await list('q=%20%20')).pagination.total).toBe(11);
    expect((await list('q=nothing-like-this')).pagination.total).toBe(0);
  });

  it('matches LIKE wildcards literally', async () => {
    expect(await names('q=a_b')).toEqual(['a_b.txt']);
    expect(await names('q=a%25b')).toEqual(['a%b.txt']);
    expect(await names('q=%5C')).toEqual(['back\\slash.txt']);
    expect(await names('q=%25')).toEqual(['a%b.txt']);
  });

  it('filters by category', async () => {
    expect(await names('category=image')).toEqual(['apple.png']);
    expect(await names('category=video')).toEqual(['date.mp4']);
    expect(await names('category=audio')).toEqual(['cherry.flac']);
    expect(await names('category=archive')).toEqual(['elder.zip']);
    expect(await names('category=other')).toEqual(['fig.bin']);
    expect((await names('category=document&sort=filename')).sort()).toEqual(
      ['Banana.pdf', 'a_b.txt', 'axb.txt', 'a%b.txt', 'back\\slash.txt', 'UPPER CASE.TXT'].sort(),
    );
    expect(assets['date.mp4'].mimeType).toBe('video/mp4');
  });

  it('filters by uploader', async () => {
    const other = assets['cherry.flac'].uploadedBy;
    expect(other).not.toBe(assets['apple.png'].uploadedBy);
    expect(await names(`uploadedBy=${other}&sort=filename`)).toEqual(['cherry.flac', 'elder.zip']);
    expect((await list(`uploadedBy=${assets['apple.png'].uploadedBy}`)).pagination.total).toBe(9);
    expect((await list('uploadedBy=someone-else')).pagination.total).toBe(0);
  });

  it('filters by upload date, inclusive through uploadedTo, in UTC', async () => {
    const day = await names('uploadedFrom=2026-01-10&uploadedTo=2026-01-10&sort=uploadedAt&order=asc');
    expect(day).toEqual(['Banana.pdf', 'cherry.flac', 'date.mp4']);
    expect(await names('uploadedTo=2026-01-09')).toEqual(['apple.png']);
    expect((await names('uploadedFrom=2026-01-11&sort=uploadedAt&order=asc')).slice(0, 2)).toEqual([
      'elder.zip',
      'fig.bin',
    ]);
    expect((await list('uploadedFrom=2026-01-11')).pagination.total).toBe(7);
    expect((await list('uploadedFrom=2024-02-29&uploadedTo=2030-12-31')).pagination.total).toBe(11);
  });

  it('combines filters with sorting and pagination', async () => {
    const body = await list('category=document&q=.txt&uploadedFrom=2026-02-01&sort=filename&limit=2&offset=1');
    expect(body.pagination).toEqual({ total: 5, limit: 2, offset: 1, hasMore: true });
    expect(body.data.map((a: any) => a.filename)).toEqual(['a_b.txt', 'axb.txt']);
  });
});

describe('media list errors', () => {
  it('rejects impossible dates and malformed ones', async () => {
    for (const value of [
      '2026-02-30',
      '2025-02-29',
      '2026-13-01',
      '2026-00-10',
      '2026-1-1',
      'yesterday',
      '0000-01-01',
    ]) {
      await expectInvalid(`uploadedFrom=${value}`, 'uploadedFrom');
      await expectInvalid(`uploadedTo=${value}`, 'uploadedTo');
    }
  });

  it('rejects an inverted date range', async () => {
    await expectInvalid('uploadedFrom=2026-01-11&uploadedTo=2026-01-10', 'uploadedTo');
  });

  it('rejects out-of-range and malformed paging and sorting', async () => {
    for (const query of ['limit=0', 'limit=101', 'limit=abc', 'limit=1.5', 'offset=-1', 'offset=x']) {
      await expectInvalid(query);
    }
    await expectInvalid('sort=createdAt', 'sort');
    await expectInvalid('order=up', 'order');
    await expectInvalid('category=images', 'category');
    await expectInvalid('uploadedBy=', 'uploadedBy');
  });

  it('rejects unknown and repeated parameters', async () => {
    await expectInvalid('page=2', 'page');
    await expectInvalid('type=image', 'type');
    await expectInvalid('q=a&q=b', 'q');
    await expectInvalid('limit=1&limit=2', 'limit');
    await expectInvalid('category=image&category=video', 'category');
  });
});
