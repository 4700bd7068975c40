/** General rate limit on unauthenticated commands: per address and route, in the database, configurable. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { expectError } from '../identity/identity-helpers.js';
import { startServerOn } from '../support/server-on-database.js';
import { sendRequest, startTestServer, type TestResponse, type TestServer } from '../support/test-server.js';

let now = new Date('2026-11-27T10:00:05Z');
const clock = () => now;
const ENV = { CMS_RATE_LIMIT_PER_MINUTE: '5', CMS_TRUST_PROXY: 'true' };
let t: TestServer;
let nextAddress = 1;

beforeAll(async () => {
  t = await startTestServer({ env: ENV, clock });
});
afterAll(() => t.close());

function newAddress(): string {
  nextAddress += 1;
  return `203.0.113.${nextAddress}`;
}

/** An invite accept with a wrong token: 400 while within the limit, 429 after. */
function accept(url: string, address: string): Promise<TestResponse> {
  return sendRequest(url, null, 'POST', '/api/v1/invites/accept', {
    project: null,
    environment: null,
    headers: { 'x-forwarded-for': address },
    body: { token: 'D'.repeat(43), password: 'a password that is long enough' },
  });
}

function expectLimited(response: TestResponse): void {
  expectError(response, 429, 'RATE_LIMITED');
  const retryAfter = Number(response.headers.get('retry-after'));
  expect(retryAfter).toBeGreaterThanOrEqual(1);
  expect(retryAfter).toBeLessThanOrEqual(60);
  expect(response.body.error.details.retryAfterSeconds).toBe(retryAfter);
  expect(response.body.error.message).toMatch(/Too many requests from this address: wait \d+ seconds/);
}

describe('the rate limit of unauthenticated commands', () => {
  it('answers 429 with Retry-After after the allowance, for that address only, until the minute ends', async () => {
    const address = newAddress();
    for (let i = 0; i < 5; i += 1) expectError(await accept(t.url, address), 400, 'INVALID_INPUT');
    expectLimited(await accept(t.url, address));
    expectError(await accept(t.url, newAddress()), 400, 'INVALID_INPUT');
    now = new Date(now.getTime() + 60_000);
    expectError(await accept(t.url, address), 400, 'INVALID_INPUT');
  });

  it('lets through exactly the allowance of 20 simultaneous requests', async () => {
    const address = newAddress();
    const answers = await Promise.all(Array.from({ length: 20 }, () => accept(t.url, address)));
    const statuses = answers.map((response) => response.status);
    expect(statuses.filter((status) => status === 400)).toHaveLength(5);
    expect(statuses.filter((status) => status === 429)).toHaveLength(15);
  });

  it('counts each route on its own, and leaves public reads alone', async () => {
    const address = newAddress();
    for (let i = 0; i < 5; i += 1) await accept(t.url, address);
    expectLimited(await accept(t.url, address));
    const setup = await sendRequest(t.url, null, 'POST', '/api/v1/setup', {
      project: null,
      environment: null,
      headers: { 'x-forwarded-for': address },
      body: { token: 'E'.repeat(43), email: 'a@example.test', password: 'a password that is long enough' },
    });
    expect(setup.status).not.toBe(429);
    for (let i = 0; i < 10; i += 1) {
      const health = await sendRequest(t.url, null, 'GET', '/healthz', { headers: { 'x-forwarded-for': address } });
      expect(health.status).toBe(200);
    }
  });

  it('is shared by two server processes on one database', async () => {
    const other = await startServerOn(t.database, { key: null, env: ENV, clock, ownConnection: true });
    try {
      const address = newAddress();
      for (let i = 0; i < 3; i += 1) expectError(await accept(t.url, address), 400, 'INVALID_INPUT');
      for (let i = 0; i < 2; i += 1) expectError(await accept(other.url, address), 400, 'INVALID_INPUT');
      expectLimited(await accept(other.url, address));
      expectLimited(await accept(t.url, address));
    } finally {
      await other.close();
    }
  });

  it('stores a hash of the route and address, never the address', async () => {
    const rows = await t.db.query<{ key: string }>(`select encode(key_hash, 'escape') as key from rate_limit_hits`);
    expect(rows.rows.length).toBeGreaterThan(0);
    for (const row of rows.rows) expect(row.key).not.toContain('203.0.113.');
  });
});

describe('CMS_RATE_LIMIT_PER_MINUTE', () => {
  it('is 30 by default, and 0 turns the limit off', async () => {
    const secret = { CMS_SECRET: 'x'.repeat(32) };
    expect(loadConfig(secret).rateLimitPerMinute).toBe(30);
    expect(loadConfig({ ...secret, CMS_RATE_LIMIT_PER_MINUTE: '0' }).rateLimitPerMinute).toBe(0);
    const off = await startTestServer({ env: { CMS_RATE_LIMIT_PER_MINUTE: '0' } });
    try {
      for (let i = 0; i < 8; i += 1) expectError(await accept(off.url, '192.0.2.1'), 400, 'INVALID_INPUT');
    } finally {
      await off.close();
    }
  });
});
