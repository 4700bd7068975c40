/** `"*"` in a new key's scopes: every scope, stored as the full list, only for a caller holding them all. */
import { SCOPES } from '@cms/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../support/test-server.js';

const EVERYWHERE = [{ project: '*', environment: '*' }];
let t: TestServer;
beforeAll(async () => {
  t = await startTestServer();
});
afterAll(() => t.close());

const createKey = (body: Record<string, unknown>, key = t.adminKey) =>
  t.request('POST', '/api/v1/api-keys', { key, body });

describe('the every-scope shorthand', () => {
  it('stores every scope in catalog order, and the key can use them', async () => {
    const created = await createKey({
      label: 'all',
      scopes: ['*'],
      contextAllowlist: [{ project: 'default', environment: '*' }],
    });
    expect(created.status, created.text).toBe(201);
    expect(created.body.data.scopes).toEqual([...SCOPES]);
    const listed = await t.request('GET', '/api/v1/api-keys');
    expect(listed.body.data.find((k: { id: string }) => k.id === created.body.data.id).scopes).toEqual([...SCOPES]);
    const schema = await t.request('GET', '/api/v1/schema', { key: created.body.data.apiKey });
    expect(schema.status).toBe(200);
  });

  it('absorbs named scopes sent next to it', async () => {
    const created = await createKey({ label: 'mixed', scopes: ['content:read', '*'], contextAllowlist: EVERYWHERE });
    expect(created.status).toBe(201);
    expect(created.body.data.scopes).toEqual([...SCOPES]);
  });

  it('is refused to a caller lacking some scope, naming the missing ones', async () => {
    const keysOnly = await t.createKey({ scopes: ['settings:manage'], allowlist: EVERYWHERE });
    const refused = await createKey({ label: 'too much', scopes: ['*'], contextAllowlist: EVERYWHERE }, keysOnly);
    expect(refused.status).toBe(403);
    expect(refused.body.error.code).toBe('FORBIDDEN');
    expect(refused.body.error.details.excess.scopes).toEqual(SCOPES.filter((scope) => scope !== 'settings:manage'));
  });

  it('is not a wildcard inside a scope name', async () => {
    const refused = await createKey({ label: 'bad', scopes: ['content:*'], contextAllowlist: EVERYWHERE });
    expect(refused.status).toBe(400);
    expect(refused.body.error.code).toBe('INVALID_INPUT');
  });
});
