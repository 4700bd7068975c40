import { isCmsError } from '@cms/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type SdkHarness, startSdkServer } from './sdk-fixtures.js';

let harness: SdkHarness;
let documentId = '';
beforeAll(async () => {
  harness = await startSdkServer();
  const cms = harness.client();
  const created = await cms.content.create({ type: 'author', path: 'audited', frontmatter: { name: 'Ada' } });
  documentId = created.documentId;
  let revision = created.draftRevision;
  for (const name of ['Ada L.', 'Ada Lovelace']) {
    revision = (await cms.content.update(documentId, { frontmatter: { name }, body: '', draftRevision: revision }))
      .draftRevision;
  }
});
afterAll(() => harness.server.close());

describe('the audit log through the SDK', () => {
  it('lists pages by cursor and iterates every entry, newest first', async () => {
    const cms = harness.client();
    const first = await cms.audit.list({ documentId, limit: 2 });
    expect(first.data.map((entry) => entry.action)).toEqual(['content.update', 'content.update']);
    expect(first.pagination.nextCursor).toEqual(expect.any(String));
    const second = await cms.audit.list({ documentId, limit: 2, cursor: first.pagination.nextCursor ?? '' });
    expect(second.data.map((entry) => entry.action)).toEqual(['content.create']);
    expect(second.pagination.nextCursor).toBeNull();

    const all = [];
    for await (const entry of cms.audit.iterate({ documentId, limit: 1 })) all.push(entry);
    expect(all.map((entry) => entry.id)).toEqual([...first.data, ...second.data].map((entry) => entry.id));
  });

  it('exports the NDJSON oldest first, parsed, and verifies the chain', async () => {
    const cms = harness.client();
    const exported = [];
    for await (const entry of cms.audit.export({ documentId })) exported.push(entry);
    expect(exported.map((entry) => entry.action)).toEqual(['content.create', 'content.update', 'content.update']);
    expect(exported[0]).toMatchObject({ target: { documentId, type: 'author' }, outcome: 'success' });
    const verified = await cms.audit.verify();
    expect(verified.ok).toBe(true);
    expect(verified.checked).toBeGreaterThanOrEqual(3);
  });

  it("reads a document's activity without client addresses, and reports a refusal as a CmsError", async () => {
    const cms = harness.client();
    const activity = await cms.content.activity(documentId, { limit: 10 });
    expect(activity.data.map((entry) => entry.action)).toEqual(['content.update', 'content.update', 'content.create']);
    expect(activity.data.every((entry) => entry.ip === null)).toBe(true);

    const refused = await cms.audit.list({ cursor: 'not-a-cursor' }).catch((error: unknown) => error);
    expect(isCmsError(refused) && refused.code).toBe('INVALID_QUERY_PARAM');
    const reader = harness.client({ apiKey: await harness.server.createKey({ scopes: ['content:read'] }) });
    const forbidden = await reader.audit.verify().catch((error: unknown) => error);
    expect(isCmsError(forbidden) && forbidden.status).toBe(403);
  });
});
