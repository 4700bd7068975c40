/**
 * A request refused for text PostgreSQL cannot store (a NUL, a lone surrogate: docs/api.md "Input rules")
 * is still an audit entry, without the offending values (docs/audit.md "Changes"): written with them, the
 * entry itself would be refused and the refusal lost.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectError, login } from '../identity/identity-helpers.js';
import { startTestServer, type TestResponse, type TestServer } from '../support/test-server.js';
import { entriesOfRequest } from './audit-helpers.js';

const lines: Array<Record<string, any>> = [];
let t: TestServer;
beforeAll(async () => {
  t = await startTestServer({
    env: { LOG_LEVEL: 'warn' },
    logStream: { write: (line) => lines.push(JSON.parse(line)) },
  });
});
afterAll(() => t.close());

async function entryOf(response: TestResponse, options: { project?: null } = {}): Promise<any> {
  const entries = await entriesOfRequest(t, response.headers.get('x-request-id') ?? '', {
    environment: null,
    ...options,
  });
  expect(entries, response.text).toHaveLength(1);
  return entries[0];
}

/** No escaped or raw NUL and no lone surrogate anywhere in the entry as the API answers it. */
function expectStorable(entry: unknown): void {
  const text = JSON.stringify(entry);
  expect(text).not.toMatch(/\\u0000|\\ud[89ab][0-9a-f]{2}(?!\\ud[c-f])/i);
}

describe('a refusal for text that cannot be stored', () => {
  it('is an entry, the NUL or lone surrogate replaced by what it was', async () => {
    const nul = await t.request('POST', '/api/v1/releases', { body: { title: 'Spring\u0000launch' } });
    expectError(nul, 400, 'INVALID_INPUT');
    const nulEntry = await entryOf(nul);
    expect(nulEntry).toMatchObject({
      action: 'releases.create',
      outcome: 'failure',
      changes: { input: { title: '[not stored: 13 characters with a NUL character]' }, status: 400 },
    });
    expectStorable(nulEntry);

    const surrogate = await t.request('POST', '/api/v1/releases', {
      rawBody: '{"title":"half \\ud83d of a pair"}',
      headers: { 'content-type': 'application/json' },
    });
    expectError(surrogate, 400, 'INVALID_INPUT');
    const surrogateEntry = await entryOf(surrogate);
    expect(surrogateEntry.changes).toEqual({
      input: { title: '[not stored: 16 characters with a lone surrogate]' },
      status: 400,
    });
    expectStorable(surrogateEntry);
  });

  it('replaces an unstorable property name, and a path parameter the target would copy', async () => {
    const key = await t.request('POST', '/api/v1/releases', {
      rawBody: '{"title":"ok","x\\u0000y":1,"\\udc00":2}',
      headers: { 'content-type': 'application/json' },
    });
    expectError(key, 400, 'INVALID_INPUT');
    const keyEntry = await entryOf(key);
    expect(keyEntry.changes.input).toEqual({ title: 'ok', '[key not stored 1]': 1, '[key not stored 2]': 2 });

    const path = await t.request('POST', '/api/v1/releases/%00/publish');
    expect(path.status).toBe(400);
    const pathEntry = await entryOf(path);
    expect(pathEntry).toMatchObject({
      action: 'releases.publish',
      outcome: 'failure',
      target: { id: '[not stored: 1 characters with a NUL character]' },
    });
    expectStorable(pathEntry);
  });

  it('records a refused sign-in with such an email, the password still redacted', async () => {
    const response = await login(t.url, 'ada\u0000@example.test', 'a password of some length');
    expectError(response, 400, 'INVALID_INPUT');
    const entry = await entryOf(response, { project: null });
    expect(entry).toMatchObject({
      action: 'auth.login',
      outcome: 'failure',
      changes: {
        input: { email: '[not stored: 17 characters with a NUL character]', password: '[redacted]' },
        status: 400,
      },
    });
  });

  it('logged no failure to write an entry, and the chains still verify', async () => {
    expect(lines.filter((line) => line.msg === 'the audit entry could not be written')).toEqual([]);
    for (const project of [undefined, null]) {
      const verify = await t.request('GET', '/api/v1/audit/verify', { environment: null, project });
      expect(verify.body.data).toMatchObject({ ok: true });
    }
  });
});
