import { expect } from 'vitest';
import type { TestServer } from '../support/test-server.js';

/** Creates a release and adds `items` (documentId → action); returns its id. */
export async function createRelease(
  t: TestServer,
  title: string,
  items: Record<string, 'publish' | 'unpublish'> = {},
): Promise<string> {
  const created = await t.request('POST', '/api/v1/releases', { body: { title } });
  expect(created.status, created.text).toBe(201);
  const id = created.body.data.id as string;
  const entries = Object.entries(items);
  if (entries.length > 0) {
    const added = await t.request('POST', `/api/v1/releases/${id}/items`, {
      body: { items: entries.map(([documentId, action]) => ({ documentId, action })) },
    });
    expect(added.status, added.text).toBe(200);
  }
  return id;
}

/** The release as `GET /releases/{id}` answers it. */
export async function getRelease(t: TestServer, id: string): Promise<any> {
  const response = await t.request('GET', `/api/v1/releases/${id}`);
  expect(response.status, response.text).toBe(200);
  return response.body.data;
}

/** Published state and version count of a document, read from the database. */
export async function documentState(t: TestServer, id: string) {
  const result = await t.db.query<{
    version: number;
    publishedVersion: number | null;
    publishedTitle: string | null;
    versions: number;
  }>(
    `select d.version, d.published_version as "publishedVersion", d.published_frontmatter->>'title' as "publishedTitle",
       (select count(*)::int from document_versions v where v.document_id = d.id) as versions
     from documents d where d.id = $1`,
    [id],
  );
  return result.rows[0];
}
