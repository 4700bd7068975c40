import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BLOG_SCHEMA, hashHeader, postFrontmatter, syncBody } from '../../server/test/content/fixtures.js';
import {
  ADMIN_EMAIL,
  ADMIN_PASSWORD,
  axeAtBothWidths,
  createEditor,
  launchBrowser,
  type StudioServer,
  screenshots,
  signInAs,
  startStudioServer,
} from './support/studio-harness.js';

/**
 * The audit log in the Studio, as a person reads it: the Activity page (sentences, filters by name) and the
 * editor's activity section (who changed the document, when, with the diff of each save), without presence
 * or preview tokens. An administrator signed in through setup; an editor, who may not read the whole log,
 * still sees each document's activity.
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

  it('lists the project activity as sentences, without presence or preview tokens, and narrows it by name', async () => {
    // What the live preview and presence write all day: none of it is activity.
    for (let i = 0; i < 3; i += 1) {
      const token = await server.request('POST', `/api/v1/content/${documentId}/preview-token`, { body: {} });
      expect(token.status, token.text).toBe(200);
    }
    const other = await server.request('POST', '/api/v1/content', {
      headers: hashHeader(),
      body: { type: 'post', path: 'posts/other', frontmatter: postFrontmatter({ title: 'Another post' }), body: 'x\n' },
    });
    expect(other.status, other.text).toBe(201);

    await page.getByRole('navigation', { name: 'Studio' }).getByRole('link', { name: 'Activity' }).click();
    await page.getByRole('heading', { name: 'Activity', level: 1 }).waitFor();
    const table = page.getByRole('table', { name: 'Activity' });
    const rows = table.locator('tbody tr');
    await table.getByRole('row', { name: /API key “test key” saved “Audited again” \(Post\)/ }).waitFor();
    await table.getByRole('row', { name: /API key “test key” created “Another post” \(Post\)/ }).waitFor();
    await expect(table.getByRole('cell', { name: 'changed title; body +1 −0 lines' }).count()).resolves.toBe(1);
    const text = await table.innerText();
    expect(text).not.toContain('preview');
    expect(text).not.toContain(documentId);
    expect(text).not.toContain('content.update');
    // The target is a link to the document.
    const link = table.getByRole('link', { name: '“Audited again” (Post)' });
    expect(await link.getAttribute('href')).toBe(`/studio/content/post/${documentId}`);
    expect(await axeAtBothWidths(page)).toEqual({ 1280: [], 768: [] });
    await screenshots(page, 'activity');

    // Filters by what a person knows: the action in words, and the document by its title.
    await page.getByLabel('Action').selectOption({ label: 'Created' });
    await page.getByRole('button', { name: 'Apply filters' }).click();
    await table.getByRole('row', { name: /saved/ }).waitFor({ state: 'detached' });
    expect(await rows.allInnerTexts()).toEqual([
      expect.stringContaining('created “Another post”'),
      expect.stringContaining('created “Audited”'),
    ]);
    await page.getByLabel('Action').selectOption({ label: 'Any' });
    await page.getByLabel('Document', { exact: true }).fill('audit');
    await page
      .getByRole('list', { name: 'Matching documents' })
      .getByRole('button', { name: /Audited again/ })
      .click();
    await page.getByRole('button', { name: 'Clear document' }).waitFor();
    await page.getByRole('button', { name: 'Apply filters' }).click();
    await table.getByRole('row', { name: /Another post/ }).waitFor({ state: 'detached' });
    expect(await rows.count()).toBe(2);

    // Preview tokens on request.
    await page.getByLabel('Include preview tokens').check();
    await page.getByRole('button', { name: 'Apply filters' }).click();
    await table
      .getByRole('row', { name: /opened a preview of “Audited again”/ })
      .first()
      .waitFor();
    expect(await rows.count()).toBe(5);
    expect(await axeAtBothWidths(page)).toEqual({ 1280: [], 768: [] });
  });

  it('filters by person, by name', async () => {
    await page.goto(studio('/content/post/' + documentId));
    // The administrator publishes in the Studio: a person, not a key.
    const published = page.waitForResponse((response) => response.url().endsWith('/publish') && response.ok());
    await page.getByRole('button', { name: 'Publish…' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Publish now' }).click();
    await published;
    await page.goto(studio('/activity'));
    const table = page.getByRole('table', { name: 'Activity' });
    await table.getByRole('row', { name: /You published “Audited again” \(Post\)/ }).waitFor();
    await page.getByLabel('Person').selectOption({ label: ADMIN_EMAIL });
    await page.getByRole('button', { name: 'Apply filters' }).click();
    await table
      .getByRole('row', { name: /API key “test key”/ })
      .first()
      .waitFor({ state: 'detached' });
    const texts = await table.locator('tbody tr').allInnerTexts();
    expect(texts.length).toBeGreaterThan(0);
    expect(texts.every((row) => row.includes('You '))).toBe(true);
  });

  it('shows who changed the document, and what, in the editor', async () => {
    await page.goto(studio(`/content/post/${documentId}`));
    const section = page.getByRole('region', { name: 'Activity' });
    await section.getByText('changed title; body +1 −0 lines').waitFor();
    await expect(section.getByText('API key “test key” created').count()).resolves.toBe(1);
    await expect(section.getByText('You published').count()).resolves.toBe(1);
    expect(await section.innerText()).not.toContain('preview');
    expect(await axeAtBothWidths(page)).toEqual({ 1280: [], 768: [] });
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
    await expect(section.getByText('API key “test key” changed documents in a batch').count()).resolves.toBe(1);
    await expect(section.getByText('API key “test key” created').count()).resolves.toBe(1);
    expect(await axeAtBothWidths(editorPage)).toEqual({ 1280: [], 768: [] });
    await editorPage.context().close();
  });
});
