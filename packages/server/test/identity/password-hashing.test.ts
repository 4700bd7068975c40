import { hash as argon2Hash } from '@node-rs/argon2';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sendRequest, startTestServer, type TestServer } from '../support/test-server.js';
import { createUser, expectError, login, PASSWORD, uniqueEmail } from './identity-helpers.js';

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer();
});
afterAll(() => t.close());

/**
 * Hashes of PASSWORD made by the `argon2` addon this server used before @node-rs/argon2 (0.45.1, which
 * writes its parameters as m,p,t): they are in existing databases and must keep verifying.
 */
const OLD_LIBRARY_HASH =
  '$argon2id$v=19$m=19456,p=1,t=2$en2QsghB/oRi+AauZ1749Q$a4HqwMle+PCSRtS0bJw4J1U6+hSbjl13v3olg3mJywg';
const OLD_LIBRARY_WEAK_HASH =
  '$argon2id$v=19$m=8192,p=1,t=1$dfWLbpH0sEj1rAQnZXLQZA$I2Ww6AFjt6ltBalPnnULugOntQ4KZKQw4uK0TT4mZH0';
/** argon2id (algorithm 2) with less memory and one pass. */
const weakHash = () => argon2Hash(PASSWORD, { algorithm: 2, memoryCost: 8192, timeCost: 1, parallelism: 1 });

async function storedHash(userId: string): Promise<string> {
  const result = await t.db.query<{ hash: string }>('select password_hash as hash from users where id = $1', [userId]);
  return result.rows[0]?.hash as string;
}

/** `$argon2id$v=19$m=19456,p=1,t=2$<salt>$<hash>` -> its parts (parameters in any order). */
function parsePhc(hash: string) {
  const [empty, type, version, parameters, salt, digest] = hash.split('$');
  expect(empty, hash).toBe('');
  expect(digest, hash).toMatch(/^[A-Za-z0-9+/]+$/);
  const params = Object.fromEntries((parameters ?? '').split(',').map((pair) => pair.split('=')));
  return {
    type,
    version: Number(version?.replace('v=', '')),
    memoryKiB: Number(params.m),
    timeCost: Number(params.t),
    parallelism: Number(params.p),
    salt,
  };
}

describe('password hashes', () => {
  it('are argon2id with at least 19 MiB, 2 passes and 1 lane, salted per user', async () => {
    const a = await createUser(t);
    const b = await createUser(t);
    const first = parsePhc(await storedHash(a.id));
    expect(first).toMatchObject({ type: 'argon2id', version: 19, timeCost: 2, parallelism: 1 });
    expect(first.memoryKiB).toBeGreaterThanOrEqual(19_456);
    expect(parsePhc(await storedHash(b.id)).salt).not.toBe(first.salt);
    expect(await storedHash(a.id)).not.toContain(PASSWORD);
  });

  it('never leave the server', async () => {
    const user = await createUser(t);
    const responses = [
      await t.request('GET', `/api/v1/users/${user.id}`),
      await t.request('GET', '/api/v1/users?limit=100'),
      await login(t.url, user.email, PASSWORD),
    ];
    for (const response of responses) {
      expect(response.text).not.toContain('$argon2');
      expect(response.text).not.toContain('passwordHash');
    }
  });

  it('are redone with the current parameters at sign-in when they were made with weaker ones', async () => {
    const user = await createUser(t);
    const weak = await weakHash();
    await t.db.query('update users set password_hash = $2 where id = $1', [user.id, weak]);
    expect((await login(t.url, user.email, PASSWORD)).status).toBe(200);
    const upgraded = await storedHash(user.id);
    expect(upgraded).not.toBe(weak);
    expect(parsePhc(upgraded)).toMatchObject({ type: 'argon2id', memoryKiB: 19_456, timeCost: 2, parallelism: 1 });
    expect((await login(t.url, user.email, PASSWORD)).status).toBe(200);
  });

  it('made by the previous hashing library still sign in, and are kept when their parameters are current', async () => {
    const user = await createUser(t);
    await t.db.query('update users set password_hash = $2 where id = $1', [user.id, OLD_LIBRARY_HASH]);
    expectError(await login(t.url, user.email, 'wrong password here'), 401, 'UNAUTHORIZED');
    expect((await login(t.url, user.email, PASSWORD)).status).toBe(200);
    expect(await storedHash(user.id)).toBe(OLD_LIBRARY_HASH);
  });

  it('made by the previous hashing library with weaker parameters sign in and are redone', async () => {
    const user = await createUser(t);
    await t.db.query('update users set password_hash = $2 where id = $1', [user.id, OLD_LIBRARY_WEAK_HASH]);
    expect((await login(t.url, user.email, PASSWORD)).status).toBe(200);
    expect(parsePhc(await storedHash(user.id))).toMatchObject({ type: 'argon2id', memoryKiB: 19_456, timeCost: 2 });
  });

  it('are not redone by a failed sign-in', async () => {
    const user = await createUser(t);
    const weak = await weakHash();
    await t.db.query('update users set password_hash = $2 where id = $1', [user.id, weak]);
    expectError(await login(t.url, user.email, 'wrong password here'), 401, 'UNAUTHORIZED');
    expect(await storedHash(user.id)).toBe(weak);
  });
});

describe('password rules: 12 to 256 characters, no composition rules', () => {
  it('accepts 12 and 256 characters of anything, counting characters rather than bytes', async () => {
    for (const password of ['aaaaaaaaaaaa', 'x'.repeat(256), '🔑🔑🔑🔑🔑🔑🔑🔑🔑🔑🔑🔑', 'lowercase only here']) {
      const email = uniqueEmail('rule');
      const response = await t.request('POST', '/api/v1/users', { body: { email, role: 'viewer', password } });
      expect(response.status, password).toBe(201);
      expect((await login(t.url, email, password)).status).toBe(200);
    }
  });

  it('rejects 11 and 257 characters with INVALID_INPUT on the password field', async () => {
    for (const password of ['a'.repeat(11), 'a'.repeat(257), '']) {
      const response = await t.request('POST', '/api/v1/users', {
        body: { email: uniqueEmail('short'), role: 'viewer', password },
      });
      expectError(response, 400, 'INVALID_INPUT');
      expect(Object.keys(response.body.error.details.fields)).toEqual(['body.password']);
      expect(response.body.error.details.fields['body.password']).toMatch(/12 to 256/);
    }
  });

  it('applies to password changes too', async () => {
    const user = await createUser(t);
    const response = await t.request('PATCH', `/api/v1/users/${user.id}`, { body: { password: 'too short' } });
    expectError(response, 400, 'INVALID_INPUT');
    expect((await login(t.url, user.email, PASSWORD)).status).toBe(200);
  });

  it('does not reveal the rules at sign-in: a short password is just wrong', async () => {
    const user = await createUser(t);
    expectError(
      await sendRequest(t.url, null, 'POST', '/api/v1/auth/login', { body: { email: user.email, password: 'x' } }),
      401,
      'UNAUTHORIZED',
    );
  });
});
