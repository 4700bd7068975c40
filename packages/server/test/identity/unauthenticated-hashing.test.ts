/** Routes anyone may call check their token before any argon2 work, and hashing is bounded. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createGate,
  hashPassword,
  PASSWORD_HASH_CONCURRENCY,
  passwordHashGate,
  verifyPassword,
} from '../../src/modules/core-system/bounded-password-hashing.js';
import { sendRequest, startTestServer, type TestServer } from '../support/test-server.js';
import { expectError, PASSWORD } from './identity-helpers.js';

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer();
});
afterAll(() => t.close());

const post = (path: string, body: unknown) =>
  sendRequest(t.url, null, 'POST', path, { project: null, environment: null, body });

describe('a wrong token costs no password hash', () => {
  it('invite accept refuses an unknown token without hashing the password', async () => {
    const before = passwordHashGate.stats().started;
    for (let i = 0; i < 5; i += 1) {
      const response = await post('/api/v1/invites/accept', { token: `${'B'.repeat(42)}${i}`, password: PASSWORD });
      expectError(response, 400, 'INVALID_INPUT');
      expect(response.body.error.details.fields).toHaveProperty(['body.token']);
    }
    expect(passwordHashGate.stats().started).toBe(before);
  });

  it('setup refuses a wrong token without hashing the password', async () => {
    const before = passwordHashGate.stats().started;
    const response = await post('/api/v1/setup', {
      token: 'C'.repeat(43),
      email: 'a@example.test',
      password: PASSWORD,
    });
    expectError(response, 400, 'INVALID_INPUT');
    expect(response.body.error.details.fields).toHaveProperty(['body.token']);
    expect(passwordHashGate.stats().started).toBe(before);
  });
});

describe('the hashing gate', () => {
  it('runs at most its size at once and every caller gets its answer', async () => {
    const gate = createGate(2);
    let running = 0;
    let most = 0;
    const work = () =>
      gate.run(async () => {
        running += 1;
        most = Math.max(most, running);
        await new Promise((resolve) => setImmediate(resolve));
        running -= 1;
        return running;
      });
    await Promise.all(Array.from({ length: 10 }, work));
    expect(most).toBe(2);
    expect(gate.stats()).toMatchObject({ started: 10, peak: 2, inFlight: 0, waiting: 0 });
  });

  it('bounds real argon2 work: 12 simultaneous hashes run at most PASSWORD_HASH_CONCURRENCY at once', async () => {
    const hashes = await Promise.all(Array.from({ length: 12 }, (_, i) => hashPassword(`${PASSWORD} ${i}`)));
    expect(passwordHashGate.stats().peak).toBeLessThanOrEqual(PASSWORD_HASH_CONCURRENCY);
    expect(await verifyPassword(hashes[3] as string, `${PASSWORD} 3`)).toBe(true);
    expect(await verifyPassword(hashes[3] as string, `${PASSWORD} 4`)).toBe(false);
  });

  it('lets the next caller in when work fails', async () => {
    const gate = createGate(1);
    await expect(gate.run(() => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
    expect(await gate.run(async () => 'next')).toBe('next');
  });
});
