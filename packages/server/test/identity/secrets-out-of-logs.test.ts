/** No secret of any flow reaches a log line: tokens in addresses, the development key, passwords. */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDocument, syncSchema } from '../content/fixtures.js';
import { sendRequest, startTestServer, type TestServer } from '../support/test-server.js';
import { PASSWORD, uniqueEmail } from './identity-helpers.js';

const PUBLIC_URL = 'https://cms.example.test';
let t: TestServer;
const lines: Array<Record<string, unknown>> = [];
const raw: string[] = [];

beforeAll(async () => {
  t = await startTestServer({
    env: { LOG_LEVEL: 'info', CMS_PUBLIC_URL: PUBLIC_URL, CMS_DEV_KEY: 'true' },
    logStream: {
      write: (line) => {
        raw.push(line);
        lines.push(JSON.parse(line));
      },
    },
  });
});
afterAll(() => t.close());

const get = (path: string) => sendRequest(t.url, null, 'GET', path, { project: null, environment: null });
const post = (path: string, body: unknown) =>
  sendRequest(t.url, null, 'POST', path, { project: null, environment: null, body });

describe('secrets and the log', () => {
  it('writes the development key to a 0600 file, never to a log line', async () => {
    const devKeyLine = lines.find((line) => line.devKeyFile);
    expect(devKeyLine?.devKeyFile).toBe(join(t.dataDir, 'dev-key'));
    const key = (await readFile(join(t.dataDir, 'dev-key'), 'utf8')).trim();
    expect(key).toMatch(/^cms_key_live_/);
    expect(raw.join('')).not.toContain(key);
    expect(raw.join('')).not.toContain(key.slice(-20));
  });

  it('redacts the setup, invite and sign-in secrets of every flow in request lines', async () => {
    const setupLine = lines.find((line) => typeof line.setupUrl === 'string');
    const setupToken = new URL(setupLine?.setupUrl as string).searchParams.get('token') as string;
    expect(setupToken).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const before = raw.length;

    // First admin: the page the link opens, a token pasted into a query, then the setup itself.
    await get(`/studio/setup?token=${setupToken}`);
    await get(`/api/v1/setup?token=${setupToken}`);
    const admin = { token: setupToken, email: uniqueEmail('admin'), password: PASSWORD };
    expect((await post('/api/v1/setup', admin)).status).toBe(200);

    // Invite: the page the link opens, a token sent in the query by mistake, the accept.
    const created = await t.request('POST', '/api/v1/invites', {
      body: { email: uniqueEmail('invited'), role: 'viewer' },
    });
    expect(created.status, created.text).toBe(200);
    const inviteToken = new URL(created.body.data.inviteUrl).searchParams.get('token') as string;
    await get(`/studio/invite?token=${inviteToken}&next=%2Fstudio%2F`);
    await post(`/api/v1/invites/accept?token=${inviteToken}`, { token: inviteToken, password: PASSWORD });
    expect((await post('/api/v1/invites/accept', { token: inviteToken, password: PASSWORD })).status).toBe(200);

    // Single sign-on: the provider sends code and state back in the address.
    const code = 'oidc-code-0123456789abcdef';
    const state = 'oidc-state-0123456789abcdef';
    await get(`/api/v1/auth/sso/test/callback?code=${code}&state=${state}`);
    await get(`/studio/login?code=${code}&state=${state}`);

    // A secret on an address no route answers, and a password that is wrong.
    await get('/nowhere?token=stray-secret-0123456789');
    await post('/api/v1/auth/login', { email: admin.email, password: 'a wrong password 0123' });

    const written = raw.slice(before).join('');
    for (const secret of [
      setupToken,
      inviteToken,
      code,
      state,
      'stray-secret-0123456789',
      PASSWORD,
      'a wrong password',
    ]) {
      expect(written).not.toContain(secret);
    }
    const urls = lines.filter((line) => line.msg === 'request').map((line) => line.url);
    expect(urls).toContain('/studio/setup?token=[redacted]');
    expect(urls).toContain('/studio/invite?token=[redacted]&next=%2Fstudio%2F');
    expect(urls).toContain('/api/v1/auth/sso/test/callback?code=[redacted]&state=[redacted]');
    expect(urls).toContain('/nowhere?[redacted]');
    // The one deliberate carrier of the setup token is its own announcement at the first start.
    expect(raw.filter((line) => line.includes(setupToken))).toHaveLength(1);
  });

  it("redacts a preview token in the live preview's event-stream address", async () => {
    await syncSchema(t);
    const doc = await createDocument(t);
    const issued = await t.request('POST', `/api/v1/content/${doc.documentId}/preview-token`, { body: {} });
    expect(issued.status, issued.text).toBe(200);
    const token = issued.body.data.token as string;
    const before = raw.length;
    // Another document's stream: refused at once, so the request line is written now.
    const other = '00000000-0000-4000-8000-000000000000';
    const refused = await get(`/api/v1/content/${other}/preview-events?token=${encodeURIComponent(token)}`);
    expect(refused.status, refused.text).toBe(403);
    const written = raw.slice(before).join('');
    expect(written).not.toContain(token);
    expect(written).not.toContain(token.split('.')[2]);
    const urls = lines.filter((line) => line.msg === 'request').map((line) => line.url);
    expect(urls).toContain(`/api/v1/content/${other}/preview-events?token=[redacted]`);
  });

  it('keeps declared, non-secret query values readable', async () => {
    await t.request('GET', '/api/v1/content?type=post&limit=5');
    const urls = lines.filter((line) => line.msg === 'request').map((line) => line.url);
    expect(urls).toContain('/api/v1/content?type=post&limit=5');
  });
});
