import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedDocuments, seedSchema } from '../content-reads/read-fixtures.js';
import { startTestServer, type TestServer } from '../support/test-server.js';

let t: TestServer;
let code: string;
let hopper: string;
let mention: string;
let legacy: string;

beforeAll(async () => {
  t = await startTestServer();
  await seedSchema(t.db);
  const published = (title: string, body: string) => ({ frontmatter: { title }, body });
  [code, hopper, mention, legacy] = (await seedDocuments(t.db, [
    { type: 'post', path: 'posts/select', published: published('Selecting', 'Call document.querySelector( once.') },
    { type: 'post', path: 'posts/hopper', published: published('Grace Hopper', 'Admiral and pioneer.') },
    { type: 'post', path: 'posts/mention', published: published('Pioneers', 'A word on grace under pressure.') },
    { type: 'post', path: 'posts/legacy', published: published('Older ways', 'getElementById still works.') },
  ])) as [string, string, string, string];
});
afterAll(() => t.close());

async function search(q: string): Promise<{ documentId: string; snippet: string }[]> {
  const response = await t.request('GET', `/api/v1/search?q=${encodeURIComponent(q)}`);
  expect(response.status, response.text).toBe(200);
  return response.body.data;
}
const ids = async (q: string) => (await search(q)).map((hit) => hit.documentId);

describe('GET /search: code identifiers and dotted names', () => {
  it('finds an identifier written inside a dotted call, whole or by its parts', async () => {
    expect(await ids('querySelector')).toEqual([code]);
    expect(await ids('document.querySelector')).toEqual([code]);
    expect(await ids('selector')).toEqual([code]);
    expect(await ids('query selector')).toEqual([code]);
    expect(await ids('element')).toEqual([legacy]);
  });
});

describe('GET /search: the last word as a prefix', () => {
  it('matches the word being typed, the title above the body', async () => {
    expect(await ids('gra')).toEqual([hopper, mention]);
    expect(await ids('grace')).toEqual([hopper, mention]);
    const [first] = await search('gra');
    expect(first?.snippet).toContain('«Grace»');
  });

  it('keeps the earlier words exact and a trailing or', async () => {
    expect(await ids('hopper gra')).toEqual([hopper]);
    expect(await ids('pressure gra')).toEqual([mention]);
    expect((await ids('admiral or pres')).sort()).toEqual([hopper, mention].sort());
  });

  it('matches a finished word, a quoted one or an excluded one exactly', async () => {
    expect(await ids('gra ')).toEqual([]);
    expect(await ids('"gra"')).toEqual([]);
    expect(await ids('pioneer -gra')).toEqual([hopper]);
    expect(await ids('g')).toEqual([]);
  });
});
