/** Routes anyone may call check their token before any argon2 work, and hashing is bounded. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createGate,
  hashPassword,
  PASSWORD_HASH_CONCURRENCY,
  PASSWORD_HASH_MAX_WAITING,
  passwordHashGate,
  verifyPassword,
} from '../../src/modules/core-system/bounded-password-hashing.js';
import { sendRequest, startTestServer, type TestServer } from '../support/test-server.js';
import { createUser, expectError, login, PASSWORD } from './identity-helpers.js';

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

  it('refuses a caller at once when the line is full, and runs the line in order', async () => {
    const gate = createGate(1, { maxWaiting: 2, full: () => new Error('line full') });
    let open = () => {};
    const held = new Promise<void>((resolve) => {
      open = resolve;
    });
    const order: number[] = [];
    const first = gate.run(async () => {
      await held;
      order.push(0);
    });
    const queued = [1, 2].map((n) => gate.run(async () => order.push(n)));
    expect(gate.hasRoom()).toBe(false);
    await expect(gate.run(async () => order.push(3))).rejects.toThrow('line full');
    expect(gate.stats()).toMatchObject({ inFlight: 1, waiting: 2, refused: 1 });
    open();
    await Promise.all([first, ...queued]);
    expect(order).toEqual([0, 1, 2]);
    expect(gate.stats()).toMatchObject({ inFlight: 0, waiting: 0, started: 3 });
  });
});

describe('a full password-hashing line', () => {
  it('answers 503 with Retry-After to a sign-in, without charging the login backoff', async () => {
    const { email } = await createUser(t);
    // Every slot taken and the line full, by work the test holds until it opens the gate.
    let open = () => {};
    const held = new Promise<void>((resolve) => {
      open = resolve;
    });
    const holders = Array.from({ length: PASSWORD_HASH_CONCURRENCY + PASSWORD_HASH_MAX_WAITING }, () =>
      passwordHashGate.run(() => held),
    );
    try {
      // More attempts than the backoff allows: none is counted, each is told when to come back.
      for (let i = 0; i < 7; i += 1) {
        const busy = await login(t.url, email, PASSWORD);
        expectError(busy, 503, 'SERVICE_UNAVAILABLE');
        expect(busy.headers.get('retry-after')).toBe('1');
        expect(busy.body.error.details).toEqual({ retryAfterSeconds: 1 });
        expect(busy.body.error.message).toMatch(/too many passwords at once: retry in 1 second/);
      }
    } finally {
      open();
      await Promise.all(holders);
    }
    expectError(await login(t.url, email, 'wrong password!'), 401, 'UNAUTHORIZED');
    expect((await login(t.url, email, PASSWORD)).status).toBe(200);
  });
});
