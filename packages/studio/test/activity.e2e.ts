import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BLOG_SCHEMA, hashHeader, postFrontmatter, syncBody } from '../../server/test/content/fixtures.js';
import {
  ADMIN_EMAIL,
  ADMIN_PASSWORD,
  createEditor,
  launchBrowser,
  type StudioServer,
  screenshots,
  seriousViolations,
  signInAs,
  startStudioServer,
} from './support/studio-harness.js';

/**
 * The audit log in the Studio: the Activity page (filters, the table) and the editor's activity section
 * (who changed the document, when, with the diff of each save). An administrator signed in through setup;
 * an editor, who may not read the whole log, still sees each document's activity.
 */
describe('activity in Chromium', () => {
  let server: StudioServer;
  let browser: Browser;
  let page: Page;
  let documentId = '';
  const studio = (path: string) => `${server.url}/studio${path}`;

  beforeAll(async () => {
    [server, browser] = await Promise.all([startStudioServer(), launchBrowser()]);
    page = await (await browser.newContext({ viewport: { width: 1280, height: 900 } })).newPage();
    const sync = await server.request('PUT', '/api/v1/schema/sync', { body: syncBody(BLOG_SCHEMA) });
    expect(sync.status, sync.text).toBe(200);
    const created = await server.request('POST', '/api/v1/content', {
      headers: hashHeader(),
      body: { type: 'post', path: 'posts/audited', frontmatter: postFrontmatter({ title: 'Audited' }), body: 'one\n' },
    });
    expect(created.status, created.text).toBe(201);
    documentId = created.body.data.documentId;
    const updated = await server.request('PUT', `/api/v1/content/${documentId}`, {
      headers: hashHeader(),
      body: { frontmatter: postFrontmatter({ title: 'Audited again' }), body: 'one\ntwo\n', draftRevision: 1 },
    });
    expect(updated.status, updated.text).toBe(200);

    await page.goto(studio(`/setup?token=${server.setupToken}`));
    await page.getByLabel('Email').fill(ADMIN_EMAIL);
    await page.getByLabel('Password', { exact: true }).fill(ADMIN_PASSWORD);
    await page.getByLabel('Repeat password').fill(ADMIN_PASSWORD);
    await page.getByRole('button', { name: 'Create administrator' }).click();
    await page.getByRole('heading', { name: 'Dashboard' }).waitFor();
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  it('lists the project activity and narrows it with filters', async () => {
    await page.getByRole('navigation', { name: 'Studio' }).getByRole('link', { name: 'Activity' }).click();
    await page.getByRole('heading', { name: 'Activity', level: 1 }).waitFor();
    const table = page.getByRole('table', { name: 'Activity' });
    await table.getByRole('cell', { name: 'content.update' }).waitFor();
    await expect(table.getByRole('cell', { name: 'changed title; body +1 −0 lines' }).count()).resolves.toBe(1);
    expect(await seriousViolations(page)).toEqual([]);
    await screenshots(page, 'activity');

    await page.getByLabel('Action').fill('content.create');
    await page.getByRole('button', { name: 'Apply filters' }).click();
    await table.getByRole('cell', { name: 'content.update' }).waitFor({ state: 'detached' });
    const actions = await table.locator('tbody code').allTextContents();
    expect(actions.length).toBeGreaterThan(0);
    expect(new Set(actions)).toEqual(new Set(['content.create']));
  });

  it('shows who changed the document, and what, in the editor', async () => {
    await page.goto(studio(`/content/post/${documentId}`));
    const section = page.getByRole('region', { name: 'Activity' });
    await section.getByText('changed title; body +1 −0 lines').waitFor();
    await expect(section.getByText('content.create').count()).resolves.toBe(1);
    expect(await seriousViolations(page)).toEqual([]);
  });

  it("shows an editor the document's activity, and a batch that changed it, without the Activity page", async () => {
    const batch = await server.request('POST', '/api/v1/content/batch', {
      headers: hashHeader(),
      body: {
        operations: [
          {
            op: 'update',
            documentId,
            frontmatter: postFrontmatter({ title: 'Audited in a batch' }),
            body: 'one\ntwo\n',
            draftRevision: 2,
          },
          { op: 'create', type: 'post', path: 'posts/batch-made', frontmatter: postFrontmatter(), body: 'x\n' },
        ],
      },
    });
    expect(batch.status, batch.text).toBe(200);
    expect(batch.body.data.applied, batch.text).toBe(2);
    await createEditor(server, 'activity-editor@example.test');
    const editorPage = await (await browser.newContext({ viewport: { width: 1280, height: 900 } })).newPage();
    await signInAs(editorPage, server, 'activity-editor@example.test');
    const nav = editorPage.getByRole('navigation', { name: 'Studio' });
    await nav.getByRole('link', { name: 'Releases' }).waitFor();
    await expect(nav.getByRole('link', { name: 'Activity' }).count()).resolves.toBe(0);

    await editorPage.goto(studio(`/content/post/${documentId}`));
    const section = editorPage.getByRole('region', { name: 'Activity' });
    await section.getByText('batch: 2 of 2 applied').waitFor();
    await expect(section.getByText('changed title; body +1 −0 lines').count()).resolves.toBe(1);
    await expect(section.getByText('content.create').count()).resolves.toBe(1);
    expect(await seriousViolations(editorPage)).toEqual([]);
    await editorPage.context().close();
  });
});
