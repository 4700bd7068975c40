import { computeSchemaHash, type ResolvedSchema, type SchemaType } from '@cms/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServer } from '../../src/server.js';
import type { Db } from '../../src/storage/db.js';
import { openPostgresDb } from '../../src/storage/postgres-db.js';
import { testEngine } from '../support/test-database.js';
import { sendRequest, startTestServer, type TestServer } from '../support/test-server.js';
import {
  addEnvironment,
  BLOG_SCHEMA,
  hashHeader,
  postFrontmatter,
  syncBody,
  syncSchema,
  uniquePath,
} from './fixtures.js';

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer();
  await syncSchema(t);
});
afterAll(() => t.close());

const smaller: ResolvedSchema = { types: BLOG_SCHEMA.types.filter((type) => type.name !== 'page') };

describe('schema cache', () => {
  it('serves the new schema right after a sync, to reads and to writes', async () => {
    expect((await t.request('GET', '/api/v1/schema')).body.data.types).toHaveLength(3);
    const hash = await syncSchema(t, smaller);
    const read = await t.request('GET', '/api/v1/schema');
    expect(read.body.data).toMatchObject({ schemaHash: hash });
    expect(read.body.data.types).toHaveLength(2);
    const create = await t.request('POST', '/api/v1/content', {
      headers: hashHeader(hash),
      body: { type: 'post', path: uniquePath(), frontmatter: postFrontmatter() },
    });
    expect(create.status).toBe(201);
    const oldHash = await t.request('POST', '/api/v1/content', {
      headers: hashHeader(),
      body: { type: 'post', path: uniquePath(), frontmatter: postFrontmatter() },
    });
    expect(oldHash.status).toBe(409);
    await syncSchema(t);
  });

  // Skipped on PGlite: the embedded database belongs to one process, so there is no second one to reach.
  it.skipIf(testEngine() !== 'postgres')('reaches another server process on the same database', async () => {
    const url = t.database.url as string;
    const db = await openPostgresDb({ connectionString: url, max: 4 });
    const other = await createServer({ ...t.config, port: 0 }, { db });
    try {
      const otherUrl = await other.listen();
      const ask = (method: string, path: string, options = {}) =>
        sendRequest(otherUrl, t.adminKey, method, path, options);
      // Warm the other process's cache with the current schema.
      expect((await ask('GET', '/api/v1/schema')).body.data.types).toHaveLength(3);
      const hash = (await t.request('PUT', '/api/v1/schema/sync', { body: syncBody(smaller) })).body.data.schemaHash;
      // Writes check the hash in their transaction, so they see the sync at once...
      const create = await ask('POST', '/api/v1/content', {
        headers: hashHeader(hash),
        body: { type: 'post', path: uniquePath(), frontmatter: postFrontmatter() },
      });
      expect(create.status, create.text).toBe(201);
      // ...and reads follow as soon as the invalidation arrives over LISTEN/NOTIFY.
      await expect
        .poll(async () => (await ask('GET', '/api/v1/schema')).body.data.schemaHash, { timeout: 5_000 })
        .toBe(hash);
    } finally {
      await other.close();
      await db.close();
    }
  });

  // Skipped on PGlite, as above.
  it.skipIf(testEngine() !== 'postgres')(
    'drops the cached schema of an extending environment on another process when its base syncs',
    async () => {
      await syncSchema(t);
      await addEnvironment(t, 'overlay', 'production');
      const note: SchemaType = { name: 'note', directory: 'notes', localized: false, fields: {} };
      const layered = await syncSchema(t, { types: [note] }, { environment: 'overlay' });
      const db = await openPostgresDb({ connectionString: t.database.url as string, max: 4 });
      // While muted, the other process hears no invalidation at all (its bus stays live): what it
      // does then rests on the check inside the write's transaction, not on the timing of NOTIFY.
      let muted = false;
      const listen: Db['listen'] = (channel, handler, onEvent) =>
        db.listen(channel, (payload) => (muted ? undefined : handler(payload)), onEvent);
      const mutable = new Proxy(db, { get: (target, key) => (key === 'listen' ? listen : Reflect.get(target, key)) });
      const other = await createServer({ ...t.config, port: 0 }, { db: mutable });
      try {
        const otherUrl = await other.listen();
        const ask = (method: string, path: string, options = {}) =>
          sendRequest(otherUrl, t.adminKey, method, path, { environment: 'overlay', ...options });
        const create = (hash: string) =>
          ask('POST', '/api/v1/content', {
            headers: hashHeader(hash),
            body: { type: 'post', path: uniquePath(), frontmatter: postFrontmatter() },
          });
        // Warm the other process's cache of the child.
        expect((await ask('GET', '/api/v1/schema')).body.data.schemaHash).toBe(layered);
        muted = true;
        await syncSchema(t, smaller);
        const merged = computeSchemaHash({ types: [...smaller.types, note] });
        // A write checks the merged hash in force in its own transaction, whatever the cache holds...
        const stale = await create(layered);
        expect(stale.status, stale.text).toBe(409);
        expect(stale.body.error.details.schemaHash).toBe(merged);
        expect((await create(merged)).status).toBe(201);
        // The muted cache still answers reads with the old merge (proof the mute held)...
        expect((await ask('GET', '/api/v1/schema')).body.data.schemaHash).toBe(layered);
        // ...and reads of the child follow a base sync once its invalidation arrives.
        muted = false;
        const tag: SchemaType = { name: 'tag', directory: 'tags', localized: false, fields: {} };
        await syncSchema(t, { types: [...BLOG_SCHEMA.types, tag] });
        await expect
          .poll(async () => (await ask('GET', '/api/v1/schema')).body.data.schemaHash, { timeout: 5_000 })
          .toBe(computeSchemaHash({ types: [...BLOG_SCHEMA.types, tag, note] }));
      } finally {
        await other.close();
        await db.close();
        await syncSchema(t);
      }
    },
  );
});
