import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../support/test-server.js';
import { BLOG_SCHEMA_HASH, syncSchema } from './fixtures.js';

describe('creating a localized document', () => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer();
    await syncSchema(t);
  });
  afterAll(() => t.close());

  const create = (locale: unknown) =>
    t.request('POST', '/api/v1/content', {
      headers: { 'x-cms-schema-hash': BLOG_SCHEMA_HASH },
      body: { type: 'page', path: `pages/about-${String(locale).length}`, locale, frontmatter: { title: 'About' } },
    });

  it('refuses an empty locale as the field’s input error, never a server error', async () => {
    const response = await create('');
    expect(response.status).toBe(400);
    expect(response.body.error.code).toBe('INVALID_INPUT');
    expect(Object.keys(response.body.error.details.fields ?? {}).join()).toContain('locale');
  });

  it('takes a locale', async () => {
    const response = await create('fr');
    expect(response.status, response.text).toBe(201);
    expect(response.body.data.locale).toBe('fr');
  });
});
