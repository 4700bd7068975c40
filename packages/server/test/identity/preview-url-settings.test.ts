import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../support/test-server.js';
import { expectError, uniqueSlug } from './identity-helpers.js';

/** The live preview settings (decisions.md §8 "Live preview"): `previewUrl` and `previewUrls` per type. */
let t: TestServer;
beforeAll(async () => {
  t = await startTestServer();
});
afterAll(() => t.close());

const settingsOf = (project: string) => t.request('GET', '/api/v1/settings', { project, environment: null });
const putSettings = (project: string, body: unknown) =>
  t.request('PUT', '/api/v1/settings', { project, environment: null, body });

async function newProject(): Promise<string> {
  const slug = uniqueSlug();
  expect((await t.request('POST', '/api/v1/projects', { body: { slug } })).status).toBe(201);
  return slug;
}

describe('live preview address settings', () => {
  it('sets, keeps when left out, and clears the address templates', async () => {
    const project = await newProject();
    const previewUrl = 'https://site.example/{locale}/{path}?preview={token}';
    const previewUrls = { post: 'http://localhost:4321/blog/{path}?token={token}&type={type}' };
    const set = await putSettings(project, { mediaImageMaxBytes: null, previewUrl, previewUrls });
    expect(set.status, set.text).toBe(200);
    expect(set.body.data).toMatchObject({ previewUrl, previewUrls });

    const kept = await putSettings(project, { mediaImageMaxBytes: 10 });
    expect(kept.body.data).toMatchObject({ previewUrl, previewUrls, mediaImageMaxBytes: 10 });
    expect((await settingsOf(project)).body.data).toMatchObject({ previewUrl, previewUrls });

    const cleared = await putSettings(project, { mediaImageMaxBytes: null, previewUrl: null, previewUrls: null });
    expect(cleared.body.data).toMatchObject({ previewUrl: null, previewUrls: null });
  });

  it.each([
    ['a relative address', { previewUrl: '/preview/{path}' }, 'body.previewUrl', /absolute http or https/],
    ['another scheme', { previewUrl: 'ftp://site.example/{path}' }, 'body.previewUrl', /http or https/],
    ['an unknown placeholder', { previewUrl: 'https://site.example/{slug}' }, 'body.previewUrl', /\{slug\}/],
    ['a bad per-type address', { previewUrls: { post: 'not a url' } }, 'body.previewUrls.post', /absolute/],
    ['a bad type name', { previewUrls: { 'a b': 'https://site.example/' } }, 'body.previewUrls.a b', /type name/],
    ['an empty address', { previewUrl: '' }, 'body.previewUrl', /./],
    // A key with a line break escaped the key pattern, and its value the string schema (a 500).
    ['a type name with a line break', { previewUrls: { 'i/\n': [1] } }, 'body.previewUrls.i/\n', /type name/],
    ['an address that is not a string', { previewUrls: { post: { a: 1 } } }, 'body.previewUrls.post', /string/],
  ])('refuses %s with INVALID_INPUT naming the field, and writes nothing', async (_name, body, field, message) => {
    const project = await newProject();
    const response = await putSettings(project, { mediaImageMaxBytes: null, ...body });
    expectError(response, 400, 'INVALID_INPUT');
    expect(response.body.error.details.fields[field]).toMatch(message);
    expect((await settingsOf(project)).body.data).toMatchObject({ previewUrl: null, previewUrls: null });
  });
});
