import { randomUUID } from 'node:crypto';
import { CmsError } from '@cms/core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { insertDocument } from '../../src/storage/repositories/documents.repository.js';
import { createTestDatabase, type TestDatabase } from '../support/test-database.js';

let database: TestDatabase;
beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(() => database.close());

// A create that passed the target check while the environment was being deleted reaches the insert
// after the delete committed: the foreign key refuses it. That is the environment being gone, not a 500.
it('answers ENVIRONMENT_NOT_FOUND when the environment is gone by the time the document is inserted', async () => {
  const projectId = randomUUID();
  await database.db.query("insert into projects (id, slug, name) values ($1, 'orphans', 'Orphans')", [projectId]);
  const write = insertDocument(
    database.db,
    { projectId, environmentId: randomUUID() },
    {
      id: randomUUID(),
      translationGroupId: randomUUID(),
      type: 'post',
      path: 'posts/orphan',
      locale: '__cms_default__',
      format: 'md',
      frontmatter: {},
      body: '',
      by: randomUUID(),
      at: new Date(),
    },
  );
  await expect(write).rejects.toBeInstanceOf(CmsError);
  await expect(write).rejects.toMatchObject({ code: 'ENVIRONMENT_NOT_FOUND' });
  const stored = await database.db.query("select count(*)::int as n from documents where path = 'posts/orphan'");
  expect(stored.rows[0]).toEqual({ n: 0 });
});
