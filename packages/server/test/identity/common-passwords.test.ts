/** New passwords are checked against a shipped list of common, breached passwords (no network). */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isCommonPassword } from '../../src/modules/core-system/common-passwords.js';
import { sendRequest, startTestServer, type TestServer } from '../support/test-server.js';
import { expectError, PASSWORD, uniqueEmail } from './identity-helpers.js';

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer();
});
afterAll(() => t.close());

describe('common passwords', () => {
  it('are on the list whatever their case, and a long unusual passphrase is not', () => {
    expect(isCommonPassword('qwertyuiop123')).toBe(true);
    expect(isCommonPassword('1Q2W3E4R5T6Y')).toBe(true);
    expect(isCommonPassword(PASSWORD)).toBe(false);
  });

  it('are refused for a new user, naming the field and how to fix it', async () => {
    for (const password of ['qwertyuiop123', 'LeaveMeAlone']) {
      const response = await t.request('POST', '/api/v1/users', {
        body: { email: uniqueEmail(), role: 'viewer', password },
      });
      expectError(response, 400, 'INVALID_INPUT');
      expect(response.body.error.details.fields['body.password']).toMatch(/most common passwords.*choose another/);
    }
    const fine = await t.request('POST', '/api/v1/users', {
      body: { email: uniqueEmail(), role: 'viewer', password: PASSWORD },
    });
    expect(fine.status, fine.text).toBe(201);
  });

  it('are refused when accepting an invite, and the invite stays usable', async () => {
    const created = await t.request('POST', '/api/v1/invites', { body: { email: uniqueEmail('inv'), role: 'viewer' } });
    const token = new URL(created.body.data.inviteUrl).searchParams.get('token') as string;
    const accept = (password: string) =>
      sendRequest(t.url, null, 'POST', '/api/v1/invites/accept', { body: { token, password } });
    const weak = await accept('123456654321');
    expectError(weak, 400, 'INVALID_INPUT');
    expect(weak.body.error.details.fields['body.password']).toMatch(/most common passwords/);
    expect((await accept(PASSWORD)).status).toBe(200);
  });
});
