/**
 * Every kind of caller leaves entries under its own name (docs/audit.md "Actors"): a Studio session,
 * an API key, a CLI key (from the device flow) and a preview token that tries to write (instance log).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDocument, hashHeader, postFrontmatter, syncSchema } from '../content/fixtures.js';
import { asSession, signInAs } from '../identity/identity-helpers.js';
import { signInCli } from '../sign-in/cli-helpers.js';
import { sendRequest, startTestServer, type TestServer } from '../support/test-server.js';
import { entriesOfRequest } from './audit-helpers.js';

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer();
  await syncSchema(t);
});
afterAll(() => t.close());

const requestIdOf = (response: { headers: Headers }) => response.headers.get('x-request-id') ?? '';
const editorGrant = [{ project: 'default', environment: '*', role: 'editor' }];
const update = (revision: number, title: string) => ({
  headers: hashHeader(),
  body: { frontmatter: postFrontmatter({ title }), body: 'text', draftRevision: revision },
});

describe('audit entries name their caller', () => {
  it('a session: the user, by id and email', async () => {
    const doc = await createDocument(t);
    const session = await signInAs(t, { role: 'editor', grants: editorGrant });
    const response = await asSession(
      t.url,
      session,
      'PUT',
      `/api/v1/content/${doc.documentId}`,
      update(1, 'By a person'),
    );
    expect(response.status, response.text).toBe(200);
    const [entry] = await entriesOfRequest(t, requestIdOf(response));
    expect(entry).toMatchObject({
      action: 'content.update',
      outcome: 'success',
      actor: { type: 'user', id: session.userId, label: session.email },
    });
  });

  it('an API key and a CLI key: each by its own key id, never its secret', async () => {
    const doc = await createDocument(t);
    const apiKey = await t.createKey();
    const byKey = await sendRequest(t.url, apiKey, 'PUT', `/api/v1/content/${doc.documentId}`, update(1, 'By a key'));
    expect(byKey.status, byKey.text).toBe(200);
    const session = await signInAs(t, { role: 'editor', grants: editorGrant });
    const cliKey = await signInCli(t.url, session);
    expect(cliKey.startsWith('cms_key_cli_')).toBe(true);
    const byCli = await sendRequest(t.url, cliKey, 'PUT', `/api/v1/content/${doc.documentId}`, update(2, 'By the CLI'));
    expect(byCli.status, byCli.text).toBe(200);

    const [keyEntry] = await entriesOfRequest(t, requestIdOf(byKey));
    const [cliEntry] = await entriesOfRequest(t, requestIdOf(byCli));
    expect(keyEntry).toMatchObject({ action: 'content.update', outcome: 'success', actor: { type: 'apiKey' } });
    expect(cliEntry).toMatchObject({ action: 'content.update', outcome: 'success', actor: { type: 'apiKey' } });
    expect(cliEntry.actor.id).not.toBe(keyEntry.actor.id);
    expect(JSON.stringify([keyEntry, cliEntry])).not.toContain(apiKey);
    expect(JSON.stringify([keyEntry, cliEntry])).not.toContain(cliKey);
  });

  it('a preview token that tries to write: a denied entry, without the token', async () => {
    const doc = await createDocument(t);
    const issued = await t.request('POST', `/api/v1/content/${doc.documentId}/preview-token`, { body: {} });
    expect(issued.status, issued.text).toBe(200);
    const token: string = issued.body.data.token;
    const response = await sendRequest(t.url, null, 'PUT', `/api/v1/content/${doc.documentId}`, {
      ...update(1, 'By a preview'),
      headers: { ...hashHeader(), authorization: `Preview ${token}` },
    });
    expect(response.status, response.text).toBe(403);
    // Refused before its project is resolved: the entry is on the instance log.
    const entries = await entriesOfRequest(t, requestIdOf(response), { project: null });
    expect(entries.map((entry) => [entry.action, entry.outcome, entry.actor.type, entry.actor.id])).toEqual([
      ['content.update', 'denied', 'preview', `preview:${doc.documentId}`],
    ]);
    expect(JSON.stringify(entries)).not.toContain(token);
  });
});
