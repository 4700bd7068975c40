import { computeSchemaHash, type ResolvedSchema } from '@cms/core';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { field, syncBody } from '../../server/test/content/fixtures.js';
import {
  ADMIN_EMAIL,
  createEditor,
  createFirstAdmin,
  type InPage,
  launchBrowser,
  type StudioServer,
  screenshots,
  seriousViolations,
  signInAs,
  startStudioServer,
} from './support/studio-harness.js';

/**
 * Working together (decisions.md §8 "Studio for writers"): "Also editing: <name>" over the document's
 * event stream in two people's browsers, the conflict panel's three-way merge in two tabs, and
 * messages in words (no patterns, no codes unless asked for).
 */
const SCHEMA: ResolvedSchema = {
  types: [
    {
      name: 'post',
      directory: 'posts',
      localized: false,
      fields: {
        title: field('string', { required: true }),
        summary: field('string'),
        code: field('string', { checks: [{ type: 'regex', value: '^[A-Z]{3}-[0-9]+$' }] }),
        author: field('reference', { reference: { targetType: 'author' } }),
      },
    },
    { name: 'author', directory: 'authors', localized: false, fields: { name: field('string', { required: true }) } },
    { name: 'page', directory: 'pages', localized: true, fields: { title: field('string', { required: true }) } },
  ],
};
const LOCALES = { default: 'en', supported: ['en', 'fr', 'de'] };
const HASH = computeSchemaHash(SCHEMA);
const EDITOR_EMAIL = 'bo@example.test';

describe('working together in the Studio', () => {
  let server: StudioServer;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;

  const studio = (path: string) => `${server.url}/studio${path}`;
  const create = async (path: string, frontmatter: Record<string, unknown>, body = '', type = 'post') => {
    const response = await server.request('POST', '/api/v1/content', {
      headers: { 'x-cms-schema-hash': HASH },
      body: { type, path, frontmatter, body },
    });
    expect(response.status, response.text).toBe(201);
    return response.body.data.documentId as string;
  };
  const stored = async (id: string) => (await server.request('GET', `/api/v1/content/${id}?draft=true`)).body.data;
  const open = async (into: Page, id: string) => {
    await into.goto(studio(`/content/post/${id}`));
    await into.locator('.cm-content').waitFor();
  };

  beforeAll(async () => {
    [server, browser] = await Promise.all([startStudioServer(), launchBrowser()]);
    await createFirstAdmin(server, SCHEMA);
    // The config's locales, as `cms schema sync` sends them.
    const synced = await server.request('PUT', '/api/v1/schema/sync', {
      body: syncBody(SCHEMA, { source: 'test', locales: LOCALES }),
    });
    expect(synced.status, synced.text).toBe(200);
    await createEditor(server, EDITOR_EMAIL);
    context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    page = await context.newPage();
    await signInAs(page, server, ADMIN_EMAIL);
  });

  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  it('shows "Also editing: <name>" to both people as the other arrives, and takes it away when they leave', async () => {
    const id = await create('posts/together', { title: 'Together' });
    const heartbeats: string[] = [];
    page.on('request', (request) => {
      if (request.url().endsWith('/presence')) heartbeats.push(request.method());
    });
    const other = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    try {
      const theirs = await other.newPage();
      await signInAs(theirs, server, EDITOR_EMAIL);
      await open(page, id);
      await open(theirs, id);
      // Both see the other as soon as the second arrives: the stream brings the news, nobody polls.
      await theirs.getByText(`Also editing: ${ADMIN_EMAIL}`).waitFor();
      await page.getByText(`Also editing: ${EDITOR_EMAIL}`).waitFor();
      expect(await seriousViolations(page)).toEqual([]);
      await screenshots(page, 'editor-presence-toolbar');
      // Leaving the document (here for the dashboard) takes their mark away.
      await theirs.getByRole('link', { name: 'Dashboard' }).click();
      await page.getByText(`Also editing: ${EDITOR_EMAIL}`).waitFor({ state: 'detached' });
      // Back again, then the whole browser window goes away without a word: the closed stream says it.
      await open(theirs, id);
      await page.getByText(`Also editing: ${EDITOR_EMAIL}`).waitFor();
      await other.close();
      await page.getByText(`Also editing: ${EDITOR_EMAIL}`).waitFor({ state: 'detached' });
      // No heartbeat: the page says it is there by holding the stream, not by renewing a mark.
      expect(heartbeats.filter((method) => method === 'PUT')).toEqual([]);
    } finally {
      await other.close();
    }
  });

  it('merges changes that do not overlap and never writes back a field only the other tab changed', async () => {
    const id = await create('posts/merge', { title: 'Draft title', summary: 'Old summary' }, 'First.\n\nSecond.\n');
    const second = await context.newPage();
    await open(page, id);
    await open(second, id);
    // The other tab changes the summary and the last body line.
    await second.getByLabel('Summary', { exact: true }).fill('Their summary');
    await second.locator('.cm-content').click();
    await second.keyboard.press('Control+End');
    await second.keyboard.type('Their line.\n');
    await second.keyboard.press('Control+s');
    await second.getByText(/^Saved at /).waitFor();
    // This tab changes only the title, and saves with the keys.
    await page.getByLabel('Title').fill('My title');
    await page.keyboard.press('Control+s');
    const panel = page.getByRole('region', { name: 'Someone else saved this document meanwhile' });
    await panel.waitFor();
    // The panel has focus (read out with its heading) and says what the merge does.
    expect(await page.evaluate(() => (globalThis as unknown as InPage).document.activeElement?.id)).toBe(
      'conflict-title',
    );
    await panel
      .getByRole('status')
      .getByText(/do not overlap/)
      .waitFor();
    const rows = panel.getByRole('table', { name: 'Fields changed since you opened the document' });
    await rows.getByRole('row', { name: /Title Draft title My title Draft title your change kept/ }).waitFor();
    await rows.getByRole('row', { name: /Summary Old summary Old summary Their summary their change taken/ }).waitFor();
    expect(await page.getByLabel('Title').inputValue()).toBe('My title');
    expect(await seriousViolations(page)).toEqual([]);
    await screenshots(page, 'conflict-three-way');
    await panel.getByRole('button', { name: 'Keep mine' }).click();
    await page.getByText(/^Saved at /).waitFor();
    const merged = await stored(id);
    expect(merged.frontmatter).toEqual({ title: 'My title', summary: 'Their summary' });
    expect(merged.body).toBe('First.\n\nSecond.\nTheir line.\n');
    // The form now shows the merge.
    expect(await page.getByLabel('Summary', { exact: true }).inputValue()).toBe('Their summary');
    await second.close();
  });

  it('keeps mine only where both changed the same field, and says so', async () => {
    const id = await create('posts/both', { title: 'Start', summary: 'Same' });
    const second = await context.newPage();
    await open(page, id);
    await open(second, id);
    await second.getByLabel('Title').fill('Their title');
    await second.keyboard.press('Control+s');
    await second.getByText(/^Saved at /).waitFor();
    await page.getByLabel('Title').fill('My title');
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    const panel = page.getByRole('region', { name: 'Someone else saved this document meanwhile' });
    await panel.getByRole('status').getByText('You both changed Title.', { exact: false }).waitFor();
    await panel.getByRole('row', { name: /Title Start My title Their title both changed it: yours kept/ }).waitFor();
    // Keyboard only: the focused heading, then Tab to the first button.
    await panel.getByRole('button', { name: 'Keep mine' }).focus();
    await page.keyboard.press('Enter');
    await page.getByText(/^Saved at /).waitFor();
    expect((await stored(id)).frontmatter).toEqual({ title: 'My title', summary: 'Same' });
    await second.close();
  });

  it('names a field’s problem in words, never its pattern, and keeps codes and request ids behind Details', async () => {
    const id = await create('posts/words', { title: 'Words' });
    await open(page, id);
    await page.getByLabel('Code').fill('abc');
    await page.keyboard.press('Control+s');
    const summary = page.getByRole('alert').filter({ hasText: 'One field needs attention' });
    await summary.getByRole('link', { name: 'Code: is not in the expected format', exact: false }).waitFor();
    expect(await page.locator('body').innerText()).not.toContain('^[A-Z]');
    // A refusal from the server: the sentence shows, the code and request id wait behind Details.
    await server.request('DELETE', `/api/v1/content/${id}`);
    await page.getByLabel('Code').fill('ABC-1');
    await page.keyboard.press('Control+s');
    const alert = page.getByRole('alert').filter({ hasText: 'Not saved.' });
    await alert.waitFor();
    const details = alert.getByText('Error code', { exact: false });
    expect(await details.isVisible()).toBe(false);
    await alert.getByText('Details').click();
    await details.waitFor();
    expect(await details.innerText()).toMatch(/Error code NOT_FOUND, request \S+/);
    expect(await seriousViolations(page)).toEqual([]);
  });

  it('offers the schema’s locales in a select, creates in the chosen one, and lists the missing translations', async () => {
    await page.goto(studio('/content/page/new'));
    const locale = page.getByLabel('Locale');
    await locale.waitFor();
    expect(await locale.evaluate((select) => (select as unknown as { nodeName: string }).nodeName)).toBe('SELECT');
    expect(await locale.locator('option').allInnerTexts()).toEqual(['en (default)', 'fr', 'de']);
    expect(await locale.inputValue()).toBe('en');
    await locale.selectOption('fr');
    await page.getByLabel('Path').fill('about');
    await page.getByLabel('Title').fill('À propos');
    await page.getByRole('button', { name: 'Create' }).click();
    const missing = page.getByRole('region', { name: 'Missing translations' });
    await missing.getByText('2 of 3 declared locales have no version yet:').waitFor();
    expect(await missing.getByRole('listitem').allInnerTexts()).toEqual(['en', 'de']);
    const listed = await server.request('GET', '/api/v1/content?type=page&draft=true&locale=fr');
    expect(listed.body.data.map((doc: { locale: string }) => doc.locale)).toEqual(['fr']);
    // Side by side: an English variant of the same group, compared from the French one.
    const fr = listed.body.data[0];
    const en = await server.request('POST', '/api/v1/content', {
      headers: { 'x-cms-schema-hash': HASH },
      body: {
        type: 'page',
        path: fr.path,
        locale: 'en',
        translationGroupId: fr.translationGroupId,
        frontmatter: { title: 'About us' },
        body: 'Who we are.\n',
      },
    });
    expect(en.status, en.text).toBe(201);
    await page.reload();
    const side = page.getByRole('region', { name: 'Side by side' });
    await side.getByLabel('Compare with').selectOption('en');
    const table = side.getByRole('table', { name: 'fr and en, field by field' });
    await table.getByRole('row', { name: 'Title À propos About us' }).waitFor();
    await table.getByRole('row', { name: /Body\s+Who we are\./ }).waitFor();
    await missing.getByText('1 of 3 declared locales have no version yet:').waitFor();
    expect(await seriousViolations(page)).toEqual([]);
  });

  it('finds a reference as you type a prefix, showing title, type and status', async () => {
    const grace = await create('grace-hopper', { name: 'Grace Hopper' }, '', 'author');
    expect((await server.request('POST', `/api/v1/content/${grace}/publish`, { body: {} })).status).toBe(200);
    await create('grace-kelly', { name: 'Grace Kelly' }, '', 'author');
    const id = await create('posts/picker', { title: 'Picker' });
    await open(page, id);
    const picker = page.getByRole('combobox', { name: 'Author' });
    await picker.click();
    await picker.pressSequentially('hop');
    // The latest documents listed on focus give way to the search's results.
    await page.getByRole('option', { name: /^Grace Kelly/ }).waitFor({ state: 'detached' });
    const option = page.getByRole('option', { name: /^Grace Hopper/ });
    await option.waitFor();
    expect(await option.innerText()).toMatch(/^Grace Hopper\s+author · grace-hopper · published$/);
    expect(await page.getByRole('option', { name: /Kelly/ }).count()).toBe(0);
    expect(await seriousViolations(page)).toEqual([]);
    // Keyboard: down to the option, Enter chooses it.
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('Enter');
    await page.getByText('Grace Hopper (grace-hopper)').waitFor();
  });
});
