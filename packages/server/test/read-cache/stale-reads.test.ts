import { execFileSync } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDocument, postFrontmatter, publishDocument, syncSchema } from '../content/fixtures.js';
import { insertAdminKey, type ServerProcess, startServerProcess } from '../reliability/server-process.js';
import { type ServerOnDatabase, startServerOn } from '../support/server-on-database.js';
import { createTestDatabase, type TestDatabase, testEngine } from '../support/test-database.js';
import { sendRequest, startTestServer, type TestServer } from '../support/test-server.js';
import { expectFresh, staleReadScenarios } from './stale-read-scenarios.js';

describe('published read cache: the process that wrote never answers the old content', () => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer();
  });
  afterAll(() => t.close());
  staleReadScenarios(() => ({ writer: t, reader: t, sameProcess: true }));
});

// Two server processes (each its own pool and LISTEN connection) on one PostgreSQL database.
describe.runIf(testEngine() === 'postgres')(
  'published read cache: another process answers the new content within 100 ms',
  () => {
    let database: TestDatabase;
    let writer: ServerOnDatabase;
    let reader: ServerOnDatabase;
    beforeAll(async () => {
      database = await createTestDatabase();
      writer = await startServerOn(database, { ownConnection: true });
      reader = await startServerOn(database, { ownConnection: true });
    });
    afterAll(async () => {
      await reader?.close();
      await writer?.close();
      await database?.close();
    });
    staleReadScenarios(() => ({ writer, reader, sameProcess: false }));

    // The server NOTIFYs after its own COMMITs; a write from anywhere else is NOTIFYed by the trigger.
    it('a write outside the server (an autocommit SQL statement) reaches every process', async () => {
      const w = writer as unknown as TestServer;
      await syncSchema(w);
      const doc = await createDocument(w, { frontmatter: postFrontmatter({ title: 'Before SQL' }) });
      await publishDocument(w, doc.documentId);
      const item = `/api/v1/content/${doc.documentId}`;
      for (const server of [writer, reader]) await server.request('GET', item);
      const client = new pg.Client({ connectionString: database.url ?? '' });
      await client.connect();
      try {
        await client.query(
          `update documents set published_frontmatter = published_frontmatter || '{"title": "After SQL"}' where id = $1`,
          [doc.documentId],
        );
      } finally {
        await client.end();
      }
      const since = performance.now();
      for (const server of [writer, reader]) {
        await expectFresh(server, item, (r) => expect(r.body.data.frontmatter.title).toBe('After SQL'), {
          sameProcess: false,
          since,
        });
      }
    });
  },
);

// The reader as production runs it: `node dist/main.js`, an operating-system process of its own.
describe.runIf(testEngine() === 'postgres')(
  'published read cache: another operating-system process answers the new content within 100 ms',
  () => {
    let database: TestDatabase;
    let writer: ServerOnDatabase;
    let child: ServerProcess;
    let dataDir: string;
    let key: string;
    beforeAll(async () => {
      // Transpile the sources under test (esbuild, about a second) for the child to run.
      execFileSync(process.execPath, ['scripts/build.mjs'], {
        cwd: fileURLToPath(new URL('../../../../', import.meta.url)),
      });
      database = await createTestDatabase();
      writer = await startServerOn(database, { ownConnection: true });
      dataDir = await mkdtemp(join(tmpdir(), 'cms-reader-'));
      child = await startServerProcess({
        DATABASE_URL: database.url ?? '',
        DATABASE_POOL_MAX: '4',
        CMS_DATA_DIR: dataDir,
      });
      key = await insertAdminKey(database.db);
    });
    afterAll(async () => {
      await child?.kill('SIGTERM');
      await writer?.close();
      await database?.close();
      if (dataDir) await rm(dataDir, { recursive: true, force: true });
    });
    staleReadScenarios(() => ({
      writer,
      reader: { request: (method, path, options) => sendRequest(child.url, key, method, path, options) },
      sameProcess: false,
    }));
  },
);
