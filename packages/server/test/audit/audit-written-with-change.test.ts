import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAuditRecorder } from '../../src/audit/audit-recorder.js';
import { type AuditScope, runInAuditScope } from '../../src/audit/audit-scope.js';
import { auditedDb } from '../../src/audit/audited-db.js';
import { createDocument, hashHeader, postFrontmatter, syncSchema } from '../content/fixtures.js';
import { login, uniqueEmail } from '../identity/identity-helpers.js';
import { startTestServer, type TestServer } from '../support/test-server.js';
import { auditEntries, entriesOfRequest } from './audit-helpers.js';

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer();
  await syncSchema(t);
});
afterAll(() => t.close());

describe('an audit entry is written with the change', () => {
  it('names actor, target, outcome, request and a diff of a document update', async () => {
    const doc = await createDocument(t, { body: 'one\ntwo\n' });
    const response = await t.request('PUT', `/api/v1/content/${doc.documentId}`, {
      headers: hashHeader(),
      body: {
        frontmatter: postFrontmatter({ title: 'Changed', summary: 'new' }),
        body: 'one\nthree\nfour\n',
        draftRevision: 1,
      },
    });
    expect(response.status, response.text).toBe(200);
    const requestId = response.headers.get('x-request-id') ?? '';
    const [entry, ...more] = await entriesOfRequest(t, requestId);
    expect(more).toEqual([]);
    expect(entry).toMatchObject({
      action: 'content.update',
      outcome: 'success',
      actor: { type: 'apiKey' },
      target: { project: 'default', environment: 'production', type: 'post', documentId: doc.documentId },
      ip: '127.0.0.1',
      changes: {
        frontmatter: { added: ['summary'], removed: [], changed: ['title'] },
        body: { linesBefore: 2, linesAfter: 3, linesAdded: 2, linesRemoved: 1 },
      },
    });
  });

  it('writes one failure entry and no success entry when the change is refused and rolled back', async () => {
    const doc = await createDocument(t);
    const stale = { frontmatter: postFrontmatter(), body: 'x', draftRevision: 1 };
    const first = await t.request('PUT', `/api/v1/content/${doc.documentId}`, { headers: hashHeader(), body: stale });
    expect(first.status, first.text).toBe(200);
    const response = await t.request('PUT', `/api/v1/content/${doc.documentId}`, {
      headers: hashHeader(),
      body: stale,
    });
    expect(response.status).toBe(409);
    const entries = await entriesOfRequest(t, response.headers.get('x-request-id') ?? '');
    expect(entries.map((entry) => [entry.action, entry.outcome])).toEqual([['content.update', 'failure']]);
  });

  it('leaves no entry when the transaction that would hold it rolls back', async () => {
    const recorder = createAuditRecorder({ db: t.db, clock: () => new Date() });
    const db = auditedDb(t.db, recorder);
    const scope: AuditScope = {
      action: 'test.rollback',
      actor: { type: 'system', id: 'test', label: null },
      projectId: null,
      target: { project: null, environment: null, type: null, documentId: null, locale: null, id: null },
      requestId: 'rollback-probe',
      ip: null,
      changes: null,
      outcome: 'success',
      written: false,
      closed: false,
    };
    await expect(
      runInAuditScope(scope, () =>
        db.transaction(async (tx) => {
          await tx.query('select 1');
          throw new Error('change refused after its work');
        }),
      ),
    ).rejects.toThrow('change refused');
    expect(scope.written).toBe(false);
    const rows = await t.db.query("select 1 from audit_entries where request_id = 'rollback-probe'");
    expect(rows.rows).toEqual([]);
    // The same scope commits on the next try, and then its entry is there.
    await runInAuditScope(scope, () => db.transaction(async () => undefined));
    expect(scope.written).toBe(true);
    const after = await t.db.query("select action from audit_entries where request_id = 'rollback-probe'");
    expect(after.rows).toEqual([{ action: 'test.rollback' }]);
  });

  it('redacts secrets: a webhook secret never reaches the log', async () => {
    const secret = 'whsec-0123456789abcdef0123456789abcdef-never-logged';
    const response = await t.request('POST', '/api/v1/webhooks', {
      body: { url: 'https://203.0.113.10/cms', events: ['content.published'], secret },
    });
    expect(response.status, response.text).toBe(201);
    const entries = await entriesOfRequest(t, response.headers.get('x-request-id') ?? '');
    expect(entries).toHaveLength(1);
    expect(entries[0].changes.input.secret).toBe('[redacted]');
    expect(JSON.stringify(entries)).not.toContain(secret);
  });

  it('records a failed and a successful sign-in on the instance chain, without the password', async () => {
    const email = uniqueEmail('audited');
    const password = 'correct horse battery staple';
    const created = await t.request('POST', '/api/v1/users', { body: { email, role: 'viewer', password } });
    expect(created.status, created.text).toBe(201);
    const failed = await login(t.url, email, 'wrong password, quite long');
    expect(failed.status).toBe(401);
    const ok = await login(t.url, email, password);
    expect(ok.status).toBe(200);
    const entries = await auditEntries(t, { action: 'auth.login' }, { project: null });
    const byRequest = (response: typeof ok) =>
      entries.find((e) => e.requestId === response.headers.get('x-request-id'));
    expect(byRequest(failed)).toMatchObject({ outcome: 'denied', actor: { type: 'anonymous', label: email } });
    expect(byRequest(ok)).toMatchObject({ outcome: 'success', actor: { type: 'user', id: created.body.data.id } });
    expect(JSON.stringify(entries)).not.toContain(password);
    expect(JSON.stringify(entries)).not.toContain('wrong password');
  });

  it('records the use of a revoked key, with the key and never its secret', async () => {
    const key = await t.createKey({ scopes: ['content:read'] });
    const revoked = await t.request('DELETE', '/api/v1/api-keys/current', { key, environment: null, project: null });
    expect(revoked.status, revoked.text).toBe(200);
    const refused = await t.request('GET', '/api/v1/content?type=post', { key });
    expect(refused.status).toBe(401);
    const entries = await auditEntries(t, { action: 'auth.apiKey.refused' }, { project: null });
    const entry = entries.find((candidate) => candidate.requestId === refused.headers.get('x-request-id'));
    expect(entry).toMatchObject({ outcome: 'denied', actor: { type: 'apiKey' }, changes: { reason: 'revoked' } });
    expect(JSON.stringify(entries)).not.toContain(key);
  });
});
