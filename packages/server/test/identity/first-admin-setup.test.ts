import { describe, expect, it } from 'vitest';
import { ConfigError } from '../../src/config.js';
import { startServerOn } from '../support/server-on-database.js';
import { createTestDatabase, type TestDatabase } from '../support/test-database.js';
import { sendRequest } from '../support/test-server.js';
import { asSession, expectError, login, PASSWORD, sessionOf } from './identity-helpers.js';

/** Collects the JSON log lines a server writes. */
function logCollector() {
  const lines: Array<Record<string, unknown>> = [];
  return {
    lines,
    stream: { write: (line: string) => void lines.push(JSON.parse(line) as Record<string, unknown>) },
  };
}

async function withDatabase<T>(fn: (database: TestDatabase) => Promise<T>): Promise<T> {
  const database = await createTestDatabase();
  try {
    return await fn(database);
  } finally {
    await database.close();
  }
}

async function countUsers(database: TestDatabase): Promise<number> {
  const result = await database.db.query<{ n: number }>('select count(*)::int as n from users');
  return result.rows[0]?.n ?? 0;
}

describe('first admin from CMS_ADMIN_EMAIL and CMS_ADMIN_PASSWORD', () => {
  it('is created at start when no user exists, once, and can sign in', async () => {
    await withDatabase(async (database) => {
      const env = { CMS_ADMIN_EMAIL: 'Root@Example.test', CMS_ADMIN_PASSWORD: PASSWORD, LOG_LEVEL: 'info' };
      const log = logCollector();
      const server = await startServerOn(database, { key: null, env, logStream: log.stream });
      try {
        expect(log.lines.some((line) => typeof line.setupUrl === 'string')).toBe(false);
        const session = sessionOf(await login(server.url, 'root@example.test', PASSWORD));
        const me = await asSession(server.url, session, 'GET', '/api/v1/me', { project: null, environment: null });
        expect(me.body.data).toMatchObject({ principalType: 'user', email: 'root@example.test', role: 'admin' });
        const setup = await sendRequest(server.url, null, 'POST', '/api/v1/setup', {
          body: { token: 'A'.repeat(43), email: 'other@example.test', password: PASSWORD },
        });
        expectError(setup, 403, 'FORBIDDEN');
      } finally {
        await server.close();
      }
      const again = await startServerOn(database, {
        key: null,
        env: { ...env, CMS_ADMIN_EMAIL: 'second@example.test' },
      });
      await again.close();
      expect(await countUsers(database)).toBe(1);
    });
  });

  it('refuses to start with only one of the two, a password outside the rules, or no email address', async () => {
    await withDatabase(async (database) => {
      const settings: Array<Record<string, string>> = [
        { CMS_ADMIN_EMAIL: 'root@example.test' },
        { CMS_ADMIN_PASSWORD: PASSWORD },
        { CMS_ADMIN_EMAIL: 'root@example.test', CMS_ADMIN_PASSWORD: 'short' },
        { CMS_ADMIN_EMAIL: 'root', CMS_ADMIN_PASSWORD: PASSWORD },
      ];
      for (const env of settings) {
        await expect(startServerOn(database, { key: null, env })).rejects.toBeInstanceOf(ConfigError);
      }
      expect(await countUsers(database)).toBe(0);
    });
  });
});

describe('first admin through the setup address', () => {
  it('logs {CMS_PUBLIC_URL}/studio/setup?token=… and accepts POST /api/v1/setup once', async () => {
    await withDatabase(async (database) => {
      const log = logCollector();
      const server = await startServerOn(database, {
        key: null,
        env: { CMS_PUBLIC_URL: 'https://cms.example.test', LOG_LEVEL: 'warn' },
        logStream: log.stream,
      });
      try {
        const logged = log.lines.filter((line) => typeof line.setupUrl === 'string');
        expect(logged).toHaveLength(1);
        const setupUrl = new URL(logged[0]?.setupUrl as string);
        expect(`${setupUrl.origin}${setupUrl.pathname}`).toBe('https://cms.example.test/studio/setup');
        const token = setupUrl.searchParams.get('token') as string;
        expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);

        const setup = (body: Record<string, unknown>) =>
          sendRequest(server.url, null, 'POST', '/api/v1/setup', { body });
        const wrong = await setup({ token: `${token.slice(0, -1)}x`, email: 'admin@example.test', password: PASSWORD });
        expectError(wrong, 400, 'INVALID_INPUT');
        expect(wrong.body.error.details.fields).toHaveProperty(['body.token']);
        const weak = await setup({ token, email: 'admin@example.test', password: 'short' });
        expectError(weak, 400, 'INVALID_INPUT');
        expectError(await setup({ token, email: 'not an email', password: PASSWORD }), 400, 'INVALID_INPUT');

        const done = await setup({ token, email: 'Admin@Example.test', password: PASSWORD });
        expect(done.status).toBe(200);
        expect(done.body.data.session).toMatchObject({ email: 'admin@example.test' });
        const session = sessionOf(done);
        expect(session.setCookie.find((c) => c.startsWith('__Host-cms_session='))).toMatch(/HttpOnly/);
        const me = await asSession(server.url, session, 'GET', '/api/v1/me', { project: null, environment: null });
        expect(me.body.data).toMatchObject({ principalType: 'user', role: 'admin' });

        const twice = await setup({ token, email: 'second@example.test', password: PASSWORD });
        expectError(twice, 403, 'FORBIDDEN');
        expect(await countUsers(database)).toBe(1);
        expect((await database.db.query('select 1 from setup_tokens')).rowCount).toBe(0);
      } finally {
        await server.close();
      }
    });
  });

  it('stores only a hash of the setup token', async () => {
    await withDatabase(async (database) => {
      const log = logCollector();
      const server = await startServerOn(database, { key: null, env: { LOG_LEVEL: 'warn' }, logStream: log.stream });
      await server.close();
      const token = new URL(log.lines.find((line) => line.setupUrl)?.setupUrl as string).searchParams.get('token');
      const rows = await database.db.query<{ h: string }>(`select encode(token_hash, 'base64') as h from setup_tokens`);
      expect(rows.rowCount).toBe(1);
      expect(rows.rows[0]?.h).not.toContain(token);
    });
  });
});
