import { computeSchemaHash, type ResolvedSchema } from '@cms/core';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { field } from '../../server/test/content/fixtures.js';
import {
  ADMIN_EMAIL,
  createFirstAdmin,
  launchBrowser,
  type StudioServer,
  seriousViolations,
  signInAs,
  startStudioServer,
} from './support/studio-harness.js';

/**
 * A type's list for finding and handling many documents: search as you type (the last word is a
 * prefix), titles, status and type on every match, filters kept while searching, page size,
 * sortable columns, and bulk publish, unpublish, delete and "Add to release".
 */
const SCHEMA: ResolvedSchema = {
  types: [
    { name: 'person', directory: 'people', localized: false, fields: { title: field('string', { required: true }) } },
  ],
};
const HASH = computeSchemaHash(SCHEMA);
/** What this file's page-side functions read (the tests are typed without the DOM library). */
type InPage = { document: { querySelector(selector: string): { textContent: string | null } | null } };
const NAMES = ['Grace Hopper', 'Ada Lovelace', 'Grant Wood', 'Katherine Johnson', 'Alan Turing'];

describe('the content list in Chromium', () => {
  let server: StudioServer;
  let browser: Browser;
  let page: Page;
  const ids = new Map<string, string>();

  const studio = (path: string) => `${server.url}/studio${path}`;
  const rows = () => page.locator('table.list tbody tr');
  const statusOf = async (name: string) => {
    const answer = await server.request('GET', `/api/v1/content/${ids.get(name)}?draft=true`);
    return answer.status === 404 ? 'deleted' : answer.body.data.publishedVersion === null ? 'draft' : 'published';
  };

  beforeAll(async () => {
    [server, browser] = await Promise.all([startStudioServer(), launchBrowser()]);
    await createFirstAdmin(server, SCHEMA);
    for (const name of NAMES) {
      const slug = name.toLowerCase().replace(/ /g, '-');
      const created = await server.request('POST', '/api/v1/content', {
        headers: { 'x-cms-schema-hash': HASH },
        body: { type: 'person', path: `people/${slug}`, frontmatter: { title: name }, body: `About ${name}.` },
      });
      expect(created.status, created.text).toBe(201);
      ids.set(name, created.body.data.documentId);
    }
    const published = await server.request('POST', `/api/v1/content/${ids.get('Grace Hopper')}/publish`, { body: {} });
    expect(published.status, published.text).toBe(200);
    page = await (await browser.newContext({ viewport: { width: 1280, height: 900 } })).newPage();
    await signInAs(page, server, ADMIN_EMAIL);
  });

  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  it('searches as you type, with titles, status and type, and keeps the filters', async () => {
    await page.goto(studio('/content/person?status=published'));
    await page.getByText('1–1 of 1').waitFor();
    // Typing "gra" (no Enter): the last word is a prefix, so Grace and Grant are found by their titles.
    await page.getByRole('searchbox', { name: 'Search' }).pressSequentially('gra');
    await page.waitForURL((url) => url.searchParams.get('q') === 'gra');
    // The status filter is still there and still applies: only the published Grace Hopper shows.
    expect(await page.getByLabel('Status').inputValue()).toBe('published');
    await rows().first().getByRole('link', { name: 'Grace Hopper' }).waitFor();
    expect(await rows().count()).toBe(1);
    expect(await rows().first().textContent()).toContain('Published');
    expect(await rows().first().textContent()).toContain('Person');
    // The search applies the filter itself, so the total counts what is shown.
    await page.getByText('1–1 of 1').waitFor();
    // All statuses: both prefix matches, each with its title and status.
    await page.getByLabel('Status').selectOption('all');
    await page.waitForURL((url) => url.searchParams.get('q') === 'gra' && !url.searchParams.has('status'));
    await page.getByRole('link', { name: 'Grant Wood' }).waitFor();
    expect(await rows().count()).toBe(2);
    expect(await page.getByRole('row', { name: /Grant Wood/ }).textContent()).toContain('Draft');
    await page.getByText('1–2 of 2').waitFor();
    expect(await seriousViolations(page)).toEqual([]);
    await page.getByRole('button', { name: 'Clear search' }).click();
    await page.getByText('1–5 of 5').waitFor();
  });

  it('sorts by a column header and pages by the chosen size', async () => {
    await page.goto(studio('/content/person'));
    await page.getByText('1–5 of 5').waitFor();
    await page.getByRole('button', { name: 'Path' }).click();
    await page.waitForURL((url) => url.searchParams.get('sort') === 'path');
    const header = page.getByRole('columnheader', { name: /Path/ });
    const firstPath = async () => rows().first().locator('td').nth(1).textContent();
    await page.waitForFunction(
      () =>
        (globalThis as unknown as InPage).document.querySelector('table.list tbody tr td:nth-child(2)')?.textContent ===
        'people/katherine-johnson',
    );
    expect(await header.getAttribute('aria-sort')).toBe('descending');
    await page.getByRole('button', { name: 'Path' }).click();
    await page.waitForURL((url) => url.searchParams.get('order') === 'asc');
    await page.waitForFunction(
      () =>
        (globalThis as unknown as InPage).document.querySelector('table.list tbody tr td:nth-child(2)')?.textContent ===
        'people/ada-lovelace',
    );
    expect(await firstPath()).toBe('people/ada-lovelace');
    expect(await header.getAttribute('aria-sort')).toBe('ascending');
    await page.getByLabel('Per page').selectOption('50');
    await page.waitForURL((url) => url.searchParams.get('size') === '50');
    expect(await rows().count()).toBe(5);
  });

  it('publishes, unpublishes, adds to a release and deletes the selected documents', async () => {
    const release = await server.request('POST', '/api/v1/releases', { body: { title: 'Spring launch' } });
    expect(release.status, release.text).toBe(201);
    await page.goto(studio('/content/person?sort=path&order=asc'));
    await page.getByText('1–5 of 5').waitFor();
    const select = (name: string) => page.getByRole('checkbox', { name: `Select ${name}` }).check();
    await select('Ada Lovelace');
    await select('Alan Turing');
    await page.getByText('2 selected').waitFor();
    await page
      .getByRole('region', { name: 'Selected documents' })
      .getByRole('button', { name: 'Publish', exact: true })
      .click();
    await page.getByText('Published 2 of 2.').waitFor();
    expect(await statusOf('Ada Lovelace')).toBe('published');
    expect(await statusOf('Alan Turing')).toBe('published');

    await select('Alan Turing');
    await page
      .getByRole('region', { name: 'Selected documents' })
      .getByRole('button', { name: 'Unpublish', exact: true })
      .click();
    await page.getByText('Unpublished 1 of 1.').waitFor();
    expect(await statusOf('Alan Turing')).toBe('draft');

    await select('Grant Wood');
    await select('Katherine Johnson');
    await page.getByLabel('Release').selectOption({ label: 'Spring launch' });
    await page.getByRole('button', { name: 'Add to release' }).click();
    await page.getByText('Added 2 to Spring launch.').waitFor();
    const items = await server.request('GET', `/api/v1/releases/${release.body.data.id}`);
    expect(items.body.data.items.map((item: { documentId: string }) => item.documentId).sort()).toEqual(
      [ids.get('Grant Wood'), ids.get('Katherine Johnson')].sort(),
    );

    await select('Alan Turing');
    page.once('dialog', (dialog) => void dialog.accept());
    await page
      .getByRole('region', { name: 'Selected documents' })
      .getByRole('button', { name: 'Delete', exact: true })
      .click();
    await page.getByText('Deleted 1 of 1.').waitFor();
    await page.getByText('1–4 of 4').waitFor();
    expect(await statusOf('Alan Turing')).toBe('deleted');
    expect(await seriousViolations(page)).toEqual([]);
  });
});
