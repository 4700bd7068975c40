import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { uniqueSlug } from '../identity/identity-helpers.js';
import { startTestServer, type TestServer } from '../support/test-server.js';
import { auditEntries } from './audit-helpers.js';

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer();
});
afterAll(() => t.close());

/** A project of its own with a few entries in its chain (environments created in it). */
async function projectWithEntries(count: number): Promise<string> {
  const slug = uniqueSlug('audit');
  const created = await t.request('POST', '/api/v1/projects', {
    body: { slug, name: slug },
    project: null,
    environment: null,
  });
  expect(created.status, created.text).toBe(201);
  for (let index = 0; index < count; index += 1) {
    const response = await t.request('POST', '/api/v1/environments', {
      project: slug,
      environment: null,
      body: { name: `env-${index}` },
    });
    expect(response.status, response.text).toBe(201);
  }
  return slug;
}

async function verify(project: string): Promise<any> {
  const response = await t.request('GET', '/api/v1/audit/verify', { project, environment: null });
  expect(response.status, response.text).toBe(200);
  return response.body.data;
}

describe('the hash chain of the audit log', () => {
  it('holds for entries as written', async () => {
    const project = await projectWithEntries(3);
    expect(await verify(project)).toEqual({ ok: true, checked: 3, firstBrokenId: null });
  });

  it('names an edited entry', async () => {
    const project = await projectWithEntries(3);
    const [, middle] = await auditEntries(t, {}, { project });
    await t.db.query("update audit_entries set outcome = 'failure' where id = $1", [middle.id]);
    expect(await verify(project)).toEqual({ ok: false, checked: 1, firstBrokenId: middle.id });
  });

  it('names an entry whose copy of its target for the filters was changed', async () => {
    // `document_id` is what `?documentId=` reads: pointing it elsewhere would hide the entry from a document.
    const project = await projectWithEntries(2);
    const [newest] = await auditEntries(t, {}, { project });
    await t.db.query('update audit_entries set document_id = $2 where id = $1', [newest.id, randomUUID()]);
    expect(await verify(project)).toEqual({ ok: false, checked: 1, firstBrokenId: newest.id });
  });

  it('names the entry after a deleted one, and the last one when the newest is deleted', async () => {
    const project = await projectWithEntries(4);
    const [newest, second, third] = await auditEntries(t, {}, { project });
    await t.db.query('delete from audit_entries where id = $1', [third.id]);
    expect(await verify(project)).toEqual({ ok: false, checked: 1, firstBrokenId: second.id });

    const other = await projectWithEntries(2);
    const [last, before] = await auditEntries(t, {}, { project: other });
    await t.db.query('delete from audit_entries where id = $1', [last.id]);
    expect(await verify(other)).toEqual({ ok: false, checked: 1, firstBrokenId: before.id });
    expect(newest.id).not.toBe(last.id);
  });

  it('keeps one unbroken chain under concurrent writers', async () => {
    const project = await projectWithEntries(0);
    const responses = await Promise.all(
      Array.from({ length: 8 }, (_, index) =>
        t.request('POST', '/api/v1/environments', { project, environment: null, body: { name: `c-${index}` } }),
      ),
    );
    for (const response of responses) expect(response.status, response.text).toBe(201);
    expect(await verify(project)).toEqual({ ok: true, checked: 8, firstBrokenId: null });
  });

  it('exports the entries as NDJSON, oldest first', async () => {
    const project = await projectWithEntries(3);
    const response = await fetch(`${t.url}/api/v1/audit/export`, {
      headers: { authorization: `Bearer ${t.adminKey}`, 'x-cms-project': project },
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toContain('application/x-ndjson');
    const lines = (await response.text())
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line));
    const newestFirst = await auditEntries(t, {}, { project });
    expect(lines.map((entry) => entry.id)).toEqual(newestFirst.map((entry) => entry.id).reverse());
  });
});
