/**
 * Every change that alters a published read, checked against a reader whose cache holds the old
 * answer: the reader is the writer itself (same process: fresh as soon as the write is answered)
 * or another server process on the same PostgreSQL database (fresh within 100 ms).
 */
import { randomBytes } from 'node:crypto';
import { expect, it } from 'vitest';
import {
  BLOG_SCHEMA,
  createAuthor,
  createDocument,
  field,
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

/** Where a scenario works when it needs a project of its own (environments, schema): its `production`. */
interface Where {
  project: string;
  environment: string;
}

/** A new project, created by the writer; its default environment is `production`. */
async function newProject(w: TestServer): Promise<Where> {
  const project = `stale-${randomBytes(4).toString('hex')}`;
  const created = await w.request('POST', '/api/v1/projects', { body: { slug: project } });
  expect(created.status, created.text).toBe(201);
  return { project, environment: 'production' };
}

/** Publishes a document of `where`. */
async function publishIn(w: TestServer, where: Where, documentId: string): Promise<void> {
  const published = await w.request('POST', `/api/v1/content/${documentId}/publish`, { ...where, body: {} });
  expect(published.status, published.text).toBe(200);
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

  it('schema sync: a field that stops being a reference changes what ?resolve= answers', async () => {
    const { reader, w, fresh } = setup();
    const at = await newProject(w);
    await syncSchema(w, undefined, at);
    const author = await createAuthor(w, 'Ada', at);
    await publishIn(w, at, author);
    const doc = await createDocument(w, { frontmatter: postFrontmatter({ author }) }, at);
    await publishIn(w, at, doc.documentId);
    const item = `/api/v1/content/${doc.documentId}?resolve=author`;
    expect((await warm(reader, item, at)).body.data.frontmatter.author.frontmatter.name).toBe('Ada');
    const withoutReference = {
      types: BLOG_SCHEMA.types.map((type) =>
        type.name === 'post'
          ? { ...type, fields: { ...type.fields, author: field('string', { nullable: true }) } }
          : type,
      ),
    };
    await syncSchema(w, withoutReference, at);
    await fresh(item, (r) => expect(r.body?.error?.code).toBe('INVALID_QUERY_PARAM'), performance.now(), at);
  });

  it('schema sync of a base environment: the environment that extends it reads the new schema', async () => {
    const { writer, reader, w, fresh } = setup();
    const at = await newProject(w);
    await syncSchema(w, undefined, at);
    const created = await writer.request('POST', '/api/v1/environments', {
      project: at.project,
      environment: null,
      body: { name: 'feature', extends: 'production' },
    });
    expect(created.status, created.text).toBe(201);
    const feature = { project: at.project, environment: 'feature' };
    const list = '/api/v1/content?type=page&limit=5';
    await warm(reader, list, feature);
    await syncSchema(w, { types: BLOG_SCHEMA.types.filter((type) => type.name !== 'page') }, at);
    await fresh(list, (r) => expect(r.body?.error?.code).toBe('SCHEMA_NOT_FOUND'), performance.now(), feature);
  });

  it('schema sync that makes a type localized or not: the locale filter of its lists follows', async () => {
    const { reader, w, fresh } = setup();
    const at = await newProject(w);
    await syncSchema(w, undefined, at);
    const en = await createDocument(
      w,
      { type: 'page', path: 'pages/about', locale: 'en', frontmatter: { title: 'About' } },
      at,
    );
    await publishIn(w, at, en.documentId);
    const list = '/api/v1/content?type=page&locale=fr&limit=5';
    const before = await warm(reader, list, at);
    expect(before.body.pagination.total).toBe(0);
    await syncSchema(
      w,
      { types: BLOG_SCHEMA.types.map((type) => (type.name === 'page' ? { ...type, localized: false } : type)) },
      at,
    );
    // A locale applies to localized types only: the list now shows every page.
    await fresh(
      list,
      (r) => {
        expect(r.body.pagination.total).toBe(1);
        expect(r.headers.get('etag')).not.toBe(before.headers.get('etag'));
      },
      performance.now(),
      at,
    );
  });

  it('locale variants: a new, edited or unpublished variant changes reads by ?locale= and X-CMS-Locale', async () => {
    const { writer, reader, w, fresh } = setup();
    const at = await newProject(w);
    const hash = await syncSchema(w, undefined, at);
    const en = await createDocument(
      w,
      { type: 'page', path: 'pages/home', locale: 'en', frontmatter: { title: 'Home' } },
      at,
    );
    await publishIn(w, at, en.documentId);
    const list = '/api/v1/content?type=page&locale=fr&limit=5';
    const byQuery = `/api/v1/content/${en.documentId}?locale=fr`;
    const byHeader = { ...at, headers: { 'x-cms-locale': 'fr' } };
    const emptyList = await warm(reader, list, at);
    expect(emptyList.body.data).toEqual([]);
    const fr = await createDocument(
      w,
      {
        type: 'page',
        path: 'pages/home',
        locale: 'fr',
        translationGroupId: en.translationGroupId,
        frontmatter: { title: 'Accueil' },
      },
      at,
    );
    await publishIn(w, at, fr.documentId);
    let since = performance.now();
    await fresh(
      list,
      (r) => expect(r.body.data.map((d: { documentId: string }) => d.documentId)).toEqual([fr.documentId]),
      since,
      at,
    );
    await fresh(byQuery, (r) => expect(r.body.data.frontmatter.title).toBe('Accueil'), since, at);
    const headerRead = await warm(reader, `/api/v1/content/${en.documentId}`, byHeader);
    expect(headerRead.body.data.frontmatter.title).toBe('Accueil');
    // The same URL without the header is the English variant, from its own entry.
    expect((await reader.request('GET', `/api/v1/content/${en.documentId}`, at)).body.data.frontmatter.title).toBe(
      'Home',
    );

    const edit = await writer.request('PUT', `/api/v1/content/${fr.documentId}`, {
      ...at,
      headers: hashHeader(hash),
      body: { frontmatter: { title: 'Bienvenue' }, body: '', draftRevision: 1 },
    });
    expect(edit.status, edit.text).toBe(200);
    await publishIn(w, at, fr.documentId);
    since = performance.now();
    await fresh(
      `/api/v1/content/${en.documentId}`,
      (r) => {
        expect(r.body.data.frontmatter.title).toBe('Bienvenue');
        expect(r.headers.get('etag')).not.toBe(headerRead.headers.get('etag'));
      },
      since,
      byHeader,
    );
    expect((await writer.request('POST', `/api/v1/content/${fr.documentId}/unpublish`, at)).status).toBe(200);
    since = performance.now();
    await fresh(`/api/v1/content/${en.documentId}`, (r) => expect(r.status).toBe(404), since, byHeader);
    await fresh(list, (r) => expect(r.body.data).toEqual([]), since, at);
  });

  it('version restore: the published read shows the restored draft ahead of it', async () => {
    const { writer, reader, w, fresh } = setup();
    await syncSchema(w);
    const id = await publishedPost(w, 'One');
    const item = `/api/v1/content/${id}`;
    const save = await writer.request('PUT', item, {
      body: { frontmatter: postFrontmatter({ title: 'Two' }), body: '', draftRevision: 1 },
      headers: hashHeader(),
    });
    expect(save.status, save.text).toBe(200);
    await publishDocument(w, id);
    const before = await warm(reader, item);
    expect(before.body.data).toMatchObject({ hasUnpublishedChanges: false, frontmatter: { title: 'Two' } });
    const restored = await writer.request('POST', `${item}/versions/1/restore`);
    expect(restored.status, restored.text).toBe(200);
    await fresh(
      item,
      (r) => {
        expect(r.body.data).toMatchObject({ hasUnpublishedChanges: true, frontmatter: { title: 'Two' } });
        expect(r.headers.get('etag')).not.toBe(before.headers.get('etag'));
      },
      performance.now(),
    );
  });

  it('a referenced document is deleted or restored: reads that resolve it change', async () => {
    const { writer, reader, w, fresh } = setup();
    await syncSchema(w);
    const author = await createAuthor(w, 'Grace');
    await publishDocument(w, author);
    const doc = await createDocument(w, { frontmatter: postFrontmatter({ author }) });
    await publishDocument(w, doc.documentId);
    const item = `/api/v1/content/${doc.documentId}?resolve=author`;
    const before = await warm(reader, item);
    expect(before.body.data.frontmatter.author.frontmatter.name).toBe('Grace');
    expect((await writer.request('DELETE', `/api/v1/content/${author}`)).status).toBe(200);
    let since = performance.now();
    await fresh(
      item,
      (r) => {
        expect(r.body.data.resolveErrors['frontmatter.author']).toBeDefined();
        expect(r.headers.get('etag')).not.toBe(before.headers.get('etag'));
      },
      since,
    );
    expect((await writer.request('POST', `/api/v1/content/${author}/restore`)).status).toBe(200);
    since = performance.now();
    await fresh(
      item,
      (r) => {
        expect(r.body.data.frontmatter.author.frontmatter.name).toBe('Grace');
        expect(r.headers.get('etag')).toBe(before.headers.get('etag'));
      },
      since,
    );
  });

  it('content migration: a dry run changes nothing, an applied one shows in the published read', async () => {
    const { writer, reader, w, fresh } = setup();
    const at = await newProject(w);
    await syncSchema(w, undefined, at);
    const doc = await createDocument(w, { frontmatter: postFrontmatter({ title: 'Migrated' }) }, at);
    await publishIn(w, at, doc.documentId);
    const item = `/api/v1/content/${doc.documentId}`;
    const list = '/api/v1/content?type=post&limit=10';
    const before = await warm(reader, item, at);
    const beforeList = await warm(reader, list, at);
    const migration = (dryRun: boolean) =>
      writer.request('POST', '/api/v1/content/migrations', {
        ...at,
        body: {
          name: 'set-minutes',
          type: 'post',
          operations: [{ op: 'set', field: 'readingMinutes', value: 7 }],
          dryRun,
        },
      });
    const dry = await migration(true);
    expect(dry.status, dry.text).toBe(200);
    expect(dry.body.data).toMatchObject({ applied: false, changed: 1 });
    const unchanged = await reader.request('GET', item, at);
    expect(unchanged.text).toBe(before.text);
    expect(unchanged.headers.get('etag')).toBe(before.headers.get('etag'));

    const applied = await migration(false);
    expect(applied.status, applied.text).toBe(200);
    expect(applied.body.data).toMatchObject({ applied: true, changed: 1 });
    const since = performance.now();
    await fresh(
      item,
      (r) => {
        expect(r.body.data).toMatchObject({ hasUnpublishedChanges: true, draftRevision: 2 });
        expect(r.body.data.frontmatter.readingMinutes).toBeUndefined();
        expect(r.headers.get('etag')).not.toBe(before.headers.get('etag'));
      },
      since,
      at,
    );
    await fresh(list, (r) => expect(r.headers.get('etag')).not.toBe(beforeList.headers.get('etag')), since, at);
    await publishIn(w, at, doc.documentId);
    await fresh(item, (r) => expect(r.body.data.frontmatter.readingMinutes).toBe(7), performance.now(), at);
  });

  it('environment clone: the new environment reads the copy, the source keeps its answers', async () => {
    const { writer, reader, w, fresh } = setup();
    const at = await newProject(w);
    await syncSchema(w, undefined, at);
    const doc = await createDocument(w, { frontmatter: postFrontmatter({ title: 'Cloned' }) }, at);
    await publishIn(w, at, doc.documentId);
    const list = '/api/v1/content?type=post&limit=10';
    const source = await warm(reader, list, at);
    const sourceItem = await warm(reader, `/api/v1/content/${doc.documentId}`, at);
    const copy = { project: at.project, environment: 'copy' };
    expect((await reader.request('GET', list, copy)).status).toBe(404);
    const cloned = await writer.request('POST', '/api/v1/environments', {
      project: at.project,
      environment: null,
      body: { name: 'copy', cloneFrom: 'production' },
    });
    expect(cloned.status, cloned.text).toBe(201);
    const since = performance.now();
    await fresh(
      list,
      (r) => {
        expect(r.status, r.text).toBe(200);
        expect(
          r.body.data.map((d: { environment: string; frontmatter: { title: string } }) => [
            d.environment,
            d.frontmatter.title,
          ]),
        ).toEqual([['copy', 'Cloned']]);
        expect(r.body.data[0].documentId).not.toBe(doc.documentId);
      },
      since,
      copy,
    );
    // The clone is not a change of the source: same bytes, same validators.
    for (const [path, earlier] of [
      [list, source],
      [`/api/v1/content/${doc.documentId}`, sourceItem],
    ] as const) {
      const again = await reader.request('GET', path, {
        ...at,
        headers: { 'if-none-match': earlier.headers.get('etag') as string },
      });
      expect(again.status).toBe(304);
    }
  });

  it('environment promote: a dry run changes nothing, an applied one shows in the target', async () => {
    const { writer, reader, w, fresh } = setup();
    const at = await newProject(w);
    const hash = await syncSchema(w, undefined, at);
    const doc = await createDocument(w, { frontmatter: postFrontmatter({ title: 'Live' }) }, at);
    await publishIn(w, at, doc.documentId);
    const cloned = await writer.request('POST', '/api/v1/environments', {
      project: at.project,
      environment: null,
      body: { name: 'staging', cloneFrom: 'production' },
    });
    expect(cloned.status, cloned.text).toBe(201);
    const staging = { project: at.project, environment: 'staging' };
    const staged = (
      await writer.request('GET', `/api/v1/content?type=post&path=${encodeURIComponent(doc.path)}`, staging)
    ).body.data[0].documentId as string;
    const edit = await writer.request('PUT', `/api/v1/content/${staged}`, {
      ...staging,
      headers: hashHeader(hash),
      body: { frontmatter: postFrontmatter({ title: 'Promoted' }), body: 'new', draftRevision: 1 },
    });
    expect(edit.status, edit.text).toBe(200);
    await publishIn(w, staging, staged);
    const item = `/api/v1/content/${doc.documentId}`;
    const list = '/api/v1/content?type=post&limit=10';
    const before = await warm(reader, item, at);
    await warm(reader, list, at);
    const promote = (dryRun: boolean) =>
      writer.request('POST', '/api/v1/environments/staging/promote', {
        project: at.project,
        environment: null,
        body: { target: 'production', dryRun },
      });
    const dry = await promote(true);
    expect(dry.status, dry.text).toBe(200);
    expect(dry.body.data.applied).toBe(false);
    const unchanged = await reader.request('GET', item, at);
    expect(unchanged.headers.get('etag')).toBe(before.headers.get('etag'));
    const applied = await promote(false);
    expect(applied.status, applied.text).toBe(200);
    expect(applied.body.data.applied).toBe(true);
    const since = performance.now();
    await fresh(
      item,
      (r) => {
        expect(r.body.data).toMatchObject({ frontmatter: { title: 'Promoted' }, body: 'new' });
        expect(r.headers.get('etag')).not.toBe(before.headers.get('etag'));
      },
      since,
      at,
    );
    await fresh(list, (r) => expect(r.body.data[0].frontmatter.title).toBe('Promoted'), since, at);
  });

  it('environment delete: its reads answer not found, never a kept body, even once the name is reused', async () => {
    const { writer, reader, w, fresh } = setup();
    const at = await newProject(w);
    await syncSchema(w, undefined, at);
    const doc = await createDocument(w, { frontmatter: postFrontmatter({ title: 'Doomed' }) }, at);
    await publishIn(w, at, doc.documentId);
    const environment = (body: Record<string, unknown>) =>
      writer.request('POST', '/api/v1/environments', { project: at.project, environment: null, body });
    expect((await environment({ name: 'temp', cloneFrom: 'production' })).status).toBe(201);
    const temp = { project: at.project, environment: 'temp' };
    const list = '/api/v1/content?type=post&limit=10';
    const tempList = await warm(reader, list, temp);
    const tempId = tempList.body.data[0].documentId as string;
    const tempItem = `/api/v1/content/${tempId}`;
    await warm(reader, tempItem, temp);
    const deleted = await writer.request('DELETE', '/api/v1/environments/temp', {
      project: at.project,
      environment: null,
    });
    expect(deleted.status, deleted.text).toBe(200);
    let since = performance.now();
    for (const path of [list, tempItem]) {
      await fresh(
        path,
        (r) => {
          expect(r.status).toBe(404);
          expect(r.body.error.code).toBe('ENVIRONMENT_NOT_FOUND');
        },
        since,
        temp,
      );
    }
    // The name again, empty this time (schema only): not the deleted environment's answers.
    expect((await environment({ name: 'temp', extends: 'production' })).status).toBe(201);
    since = performance.now();
    await fresh(list, (r) => expect(r.body.data).toEqual([]), since, temp);
    await fresh(tempItem, (r) => expect(r.status).toBe(404), since, temp);
  });
}
