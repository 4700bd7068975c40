/**
 * Every change that alters a published read, checked against a reader whose cache holds the old
 * answer: the reader is the writer itself (same process: fresh as soon as the write is answered)
 * or another server process on the same PostgreSQL database (fresh within 100 ms).
 */
import { expect, it } from 'vitest';
import {
  BLOG_SCHEMA,
  createAuthor,
  createDocument,
  hashHeader,
  postFrontmatter,
  publishDocument,
  syncSchema,
} from '../content/fixtures.js';
import type { RequestOptions, TestResponse, TestServer } from '../support/test-server.js';

/** A server as these scenarios use it. */
export interface Client {
  request(method: string, path: string, options?: RequestOptions): Promise<TestResponse>;
}

/** Most milliseconds another process may still answer the old content after a write is acknowledged. */
export const CROSS_PROCESS_BOUND_MS = 100;

/**
 * Reads `path` on the reader until `check` passes: at once for the same process (a single read),
 * for up to CROSS_PROCESS_BOUND_MS after `since` for another process. Returns the elapsed time.
 */
export async function expectFresh(
  reader: Client,
  path: string,
  check: (response: TestResponse) => void,
  options: { sameProcess: boolean; since: number; request?: RequestOptions },
): Promise<number> {
  for (;;) {
    const response = await reader.request('GET', path, options.request);
    const elapsed = performance.now() - options.since;
    try {
      check(response);
      return elapsed;
    } catch (error) {
      if (options.sameProcess || elapsed > CROSS_PROCESS_BOUND_MS) throw error;
    }
    await new Promise((resolve) => setTimeout(resolve, 2));
  }
}

/** Reads `path` twice on the reader, so its answer is held in memory, and returns it. */
async function warm(reader: Client, path: string, options?: RequestOptions): Promise<TestResponse> {
  await reader.request('GET', path, options);
  const response = await reader.request('GET', path, options);
  expect(response.status, response.text).toBe(200);
  return response;
}

/** Registers the scenarios; `servers()` gives the writer and the reader once the suite has started. */
export function staleReadScenarios(servers: () => { writer: Client; reader: Client; sameProcess: boolean }): void {
  const setup = () => {
    const { writer, reader, sameProcess } = servers();
    const w = writer as unknown as TestServer;
    const fresh = (path: string, check: (response: TestResponse) => void, since: number, request?: RequestOptions) =>
      expectFresh(reader, path, check, { sameProcess, since, ...(request ? { request } : {}) });
    return { writer, reader, w, fresh };
  };

  const publishedPost = async (w: TestServer, title: string) => {
    const doc = await createDocument(w, { frontmatter: postFrontmatter({ title }) });
    await publishDocument(w, doc.documentId);
    return doc.documentId as string;
  };

  it('publish: the item and the list show the new version', async () => {
    const { writer, reader, w, fresh } = setup();
    await syncSchema(w);
    const id = await publishedPost(w, 'First');
    const item = `/api/v1/content/${id}`;
    const list = '/api/v1/content?type=post&limit=100';
    expect((await warm(reader, item)).body.data.frontmatter.title).toBe('First');
    await warm(reader, list);
    const save = await writer.request('PUT', item, {
      body: { frontmatter: postFrontmatter({ title: 'Second' }), body: '', draftRevision: 1 },
      headers: hashHeader(),
    });
    expect(save.status, save.text).toBe(200);
    await publishDocument(w, id);
    const since = performance.now();
    await fresh(item, (r) => expect(r.body.data.frontmatter.title).toBe('Second'), since);
    await fresh(
      list,
      (r) =>
        expect(r.body.data.find((d: { documentId: string }) => d.documentId === id).frontmatter.title).toBe('Second'),
      since,
    );
  });

  it('draft save: the published read shows hasUnpublishedChanges', async () => {
    const { writer, reader, w, fresh } = setup();
    await syncSchema(w);
    const id = await publishedPost(w, 'Kept');
    const item = `/api/v1/content/${id}`;
    expect((await warm(reader, item)).body.data.hasUnpublishedChanges).toBe(false);
    const save = await writer.request('PUT', item, {
      body: { frontmatter: postFrontmatter({ title: 'Draft only' }), body: '', draftRevision: 1 },
      headers: hashHeader(),
    });
    expect(save.status, save.text).toBe(200);
    await fresh(
      item,
      (r) => expect(r.body.data).toMatchObject({ hasUnpublishedChanges: true, frontmatter: { title: 'Kept' } }),
      performance.now(),
    );
  });

  it('unpublish, delete and restore: the item goes and comes back', async () => {
    const { writer, reader, w, fresh } = setup();
    await syncSchema(w);
    const id = await publishedPost(w, 'Here');
    const item = `/api/v1/content/${id}`;
    await warm(reader, item);
    expect((await writer.request('POST', `${item}/unpublish`)).status).toBe(200);
    await fresh(item, (r) => expect(r.status).toBe(404), performance.now());

    await publishDocument(w, id);
    await warm(reader, item);
    expect((await writer.request('DELETE', item)).status).toBe(200);
    await fresh(item, (r) => expect(r.status).toBe(404), performance.now());

    const list = `/api/v1/content?type=post&limit=100`;
    const before = (await warm(reader, list)).body.pagination.total;
    const restored = await writer.request('POST', `${item}/restore`);
    expect(restored.status, restored.text).toBe(200);
    await fresh(list, (r) => expect(r.body.pagination.total).toBe(before + 1), performance.now());
  });

  it('a referenced document changes: reads that resolve it show the change', async () => {
    const { writer, reader, w, fresh } = setup();
    await syncSchema(w);
    const author = await createAuthor(w, 'Ada');
    await publishDocument(w, author);
    const doc = await createDocument(w, { frontmatter: postFrontmatter({ author }) });
    await publishDocument(w, doc.documentId);
    const item = `/api/v1/content/${doc.documentId}?resolve=author`;
    const list = `/api/v1/content?type=post&resolve=author&limit=100`;
    expect((await warm(reader, item)).body.data.frontmatter.author.frontmatter.name).toBe('Ada');
    await warm(reader, list);
    const save = await writer.request('PUT', `/api/v1/content/${author}`, {
      body: { frontmatter: { name: 'Ada Lovelace' }, body: '', draftRevision: 1 },
      headers: hashHeader(),
    });
    expect(save.status, save.text).toBe(200);
    await publishDocument(w, author);
    const since = performance.now();
    await fresh(item, (r) => expect(r.body.data.frontmatter.author.frontmatter.name).toBe('Ada Lovelace'), since);
    await fresh(
      list,
      (r) =>
        expect(
          r.body.data.find((d: { documentId: string }) => d.documentId === doc.documentId).frontmatter.author
            .frontmatter.name,
        ).toBe('Ada Lovelace'),
      since,
    );
    // Unpublished, the reference is reported instead of shown.
    expect((await writer.request('POST', `/api/v1/content/${author}/unpublish`)).status).toBe(200);
    await fresh(
      item,
      (r) => expect(r.body.data.resolveErrors['frontmatter.author'].code).toBe('REFERENCE_FORBIDDEN'),
      performance.now(),
    );
  });

  it('schema sync: a list of a type the new schema drops answers SCHEMA_NOT_FOUND', async () => {
    const { reader, w, fresh } = setup();
    await syncSchema(w);
    const list = '/api/v1/content?type=page&limit=5';
    await warm(reader, list);
    await syncSchema(w, { types: BLOG_SCHEMA.types.filter((type) => type.name !== 'page') });
    await fresh(list, (r) => expect(r.body?.error?.code).toBe('SCHEMA_NOT_FOUND'), performance.now());
    await syncSchema(w);
  });
}
