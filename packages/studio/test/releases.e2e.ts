import { computeSchemaHash, type ResolvedSchema } from '@cms/core';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { field } from '../../server/test/content/fixtures.js';
import {
  createFirstAdmin,
  launchBrowser,
  type StudioServer,
  seriousViolations,
  signInAs,
  startStudioServer,
} from './support/studio-harness.js';

/**
 * Releases in Chromium: create one on the Releases page, add a document to it from the editor,
 * schedule it at a wall time in a chosen time zone (the form says a draft changed later fails it, and
 * the page flags one), publish it now; the editor's "Schedule", a
 * release of one document; and a release whose draft moved on and whose document was deleted: the
 * flag, the failed publish with its reason, then publish and revert from the page.
 */
const SCHEMA: ResolvedSchema = {
  types: [
    { name: 'note', directory: 'notes', localized: false, fields: { title: field('string', { required: true }) } },
  ],
};
const HASH = computeSchemaHash(SCHEMA);
/** A wall time in Paris far enough ahead to stay in the future, in winter (UTC+1). */
const PARIS_WALL_TIME = '2030-01-15T09:30';
const PARIS_INSTANT = '2030-01-15T08:30:00.000Z';

describe('releases in the Studio', () => {
  let server: StudioServer;
  let browser: Browser;
  let page: Page;

  const studio = (path: string) => `${server.url}/studio${path}`;
  const createNote = async (path: string, title: string) => {
    const response = await server.request('POST', '/api/v1/content', {
      headers: { 'x-cms-schema-hash': HASH },
      body: { type: 'note', path, frontmatter: { title }, body: 'Hello.' },
    });
    expect(response.status, response.text).toBe(201);
    return response.body.data.documentId as string;
  };
  const apiGet = async (path: string) => {
    const response = await server.request('GET', path);
    expect(response.status, response.text).toBe(200);
    return response.body;
  };

  beforeAll(async () => {
    [server, browser] = await Promise.all([startStudioServer(), launchBrowser()]);
    await createFirstAdmin(server, SCHEMA);
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, timezoneId: 'UTC' });
    page = await context.newPage();
    await signInAs(page, server);
  });

  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  it('creates a release, adds a document from the editor, schedules it in a time zone and publishes it now', async () => {
    const noteId = await createNote('notes/launch', 'Launch note');

    await page.getByRole('navigation', { name: 'Studio' }).getByRole('link', { name: 'Releases' }).click();
    await page.getByRole('heading', { name: 'Releases', level: 1 }).waitFor();
    await page.getByLabel('Title').fill('Winter launch');
    await page.getByRole('button', { name: 'Create release' }).click();
    await page.getByRole('heading', { name: 'Winter launch' }).waitFor();
    expect(await page.getByText('No documents yet').isVisible()).toBe(true);

    await page.goto(studio(`/content/note/${noteId}`));
    await page.getByRole('button', { name: 'Add to release' }).click();
    const addDialog = page.getByRole('dialog', { name: 'Add notes/launch to a release' });
    await expect.poll(() => addDialog.getByLabel('Release', { exact: true }).inputValue()).not.toBe('__new__');
    expect(await addDialog.getByLabel('Release', { exact: true }).locator('option:checked').textContent()).toContain(
      'Winter launch',
    );
    await addDialog.getByRole('button', { name: 'Add to release' }).click();
    await page.getByText('Added to the release “Winter launch”.').waitFor();
    await page.getByRole('link', { name: 'Open the release' }).click();

    await page.getByRole('heading', { name: 'Winter launch' }).waitFor();
    await page.getByRole('link', { name: 'notes/launch' }).waitFor();
    expect(await page.getByRole('cell', { name: 'Ready' }).isVisible()).toBe(true);
    expect(await seriousViolations(page)).toEqual([]);

    await page.getByRole('button', { name: 'Schedule', exact: true }).click();
    // Before scheduling, the form says what goes out at that time.
    await page.getByText('If a draft changes before then, the release does not publish').waitFor();
    await page.getByLabel('Publish at').fill(PARIS_WALL_TIME);
    await page.getByLabel('Time zone').selectOption('Europe/Paris');
    await page.getByRole('button', { name: 'Save schedule' }).click();
    await page.getByText('Scheduled for 15 Jan 2030').first().waitFor();
    await page.getByText('Scheduled', { exact: true }).first().waitFor();
    const releaseId = new URL(page.url()).pathname.split('/').pop() as string;
    const scheduled = (await apiGet(`/api/v1/releases/${releaseId}`)).data;
    expect(scheduled).toMatchObject({ status: 'scheduled', scheduledAt: PARIS_INSTANT, timeZone: 'Europe/Paris' });
    expect(scheduled.items).toMatchObject([{ documentId: noteId, action: 'publish' }]);

    // A draft edited once scheduled: the page says the release will fail at its time unless scheduled again.
    const edited = await server.request('PUT', `/api/v1/content/${noteId}`, {
      headers: { 'x-cms-schema-hash': HASH },
      body: { frontmatter: { title: 'Launch note, edited' }, body: 'Hello.', draftRevision: 1 },
    });
    expect(edited.status, edited.text).toBe(200);
    await page.reload();
    await page.getByText('1 document was changed since the release was scheduled').waitFor();
    expect(await page.getByRole('cell', { name: 'Changed since scheduled' }).isVisible()).toBe(true);

    await page.getByRole('button', { name: 'Publish now' }).click();
    await page
      .getByRole('dialog', { name: 'Publish “Winter launch” now?' })
      .getByRole('button', { name: 'Publish now' })
      .click();
    await page.getByText('Published: every document of the release is out.').waitFor();
    await page.getByRole('cell', { name: 'Published as version 1' }).waitFor();
    expect((await apiGet(`/api/v1/releases/${releaseId}`)).data.status).toBe('published');
    expect((await apiGet(`/api/v1/content/${noteId}`)).data).toMatchObject({ publishedVersion: 1 });
    // Once out, it can be reverted, no longer scheduled.
    expect(await page.getByRole('button', { name: 'Revert' }).isVisible()).toBe(true);
    expect(await page.getByRole('button', { name: 'Schedule', exact: true }).count()).toBe(0);
  });

  it('schedules one document from the editor as a release of one', async () => {
    const noteId = await createNote('notes/later', 'Later note');
    await page.goto(studio(`/content/note/${noteId}`));
    await page.getByRole('button', { name: 'Schedule', exact: true }).click();
    const dialog = page.getByRole('dialog', { name: 'Schedule notes/later' });
    await dialog.getByText('If a draft changes before then, the release does not publish').waitFor();
    await dialog.getByLabel('Publish at').fill(PARIS_WALL_TIME);
    await dialog.getByLabel('Time zone').selectOption('Europe/Paris');
    await dialog.getByRole('button', { name: 'Schedule publish' }).click();
    await page.getByText('Scheduled to publish on 15 Jan 2030').waitFor();
    const listed = (await apiGet('/api/v1/releases?status=scheduled')).data as Array<{ id: string; title: string }>;
    const release = listed.find((r) => r.title === 'Publish notes/later');
    expect(release).toBeDefined();
    const detail = (await apiGet(`/api/v1/releases/${release?.id}`)).data;
    expect(detail).toMatchObject({ scheduledAt: PARIS_INSTANT, timeZone: 'Europe/Paris' });
    expect(detail.items).toMatchObject([{ documentId: noteId, action: 'publish' }]);
  });

  it('schedules again into the release a failed schedule made, not a second one', async () => {
    const noteId = await createNote('notes/retried', 'Retried note');
    await page.goto(studio(`/content/note/${noteId}`));
    // The schedule request fails once on its way (a dropped connection), after the release was made.
    let failed = 0;
    await page.route('**/api/v1/releases/*/schedule', async (route) => {
      if (failed++ === 0) await route.abort('connectionreset');
      else await route.continue();
    });
    await page.getByRole('button', { name: 'Schedule', exact: true }).click();
    const dialog = page.getByRole('dialog', { name: 'Schedule notes/retried' });
    await dialog.getByLabel('Publish at').fill(PARIS_WALL_TIME);
    await dialog.getByLabel('Time zone').selectOption('Europe/Paris');
    await dialog.getByRole('button', { name: 'Schedule publish' }).click();
    await dialog.getByText('Not scheduled.').waitFor();
    await dialog.getByText('The release “Publish notes/retried” was made').waitFor();
    await dialog.getByRole('button', { name: 'Schedule publish' }).click();
    await page.getByText('Scheduled to publish on 15 Jan 2030').waitFor();
    await page.unroute('**/api/v1/releases/*/schedule');
    const all = (await apiGet('/api/v1/releases?limit=100')).data as Array<{
      id: string;
      title: string;
      status: string;
    }>;
    const made = all.filter((r) => r.title === 'Publish notes/retried');
    expect(made.map((r) => r.status)).toEqual(['scheduled']);
    expect((await apiGet(`/api/v1/releases/${made[0]?.id}`)).data.items).toMatchObject([
      { documentId: noteId, action: 'publish' },
    ]);
  });

  it('flags a document changed since added, shows why a publish failed, then publishes and reverts', async () => {
    const editedId = await createNote('notes/edited', 'Before review');
    const goneId = await createNote('notes/gone', 'Soon deleted');
    const created = await server.request('POST', '/api/v1/releases', { body: { title: 'Spring cleaning' } });
    expect(created.status, created.text).toBe(201);
    const releaseId = created.body.data.id as string;
    const added = await server.request('POST', `/api/v1/releases/${releaseId}/items`, {
      body: {
        items: [
          { documentId: editedId, action: 'publish' },
          { documentId: goneId, action: 'publish' },
        ],
      },
    });
    expect(added.status, added.text).toBe(200);
    const edited = await server.request('PUT', `/api/v1/content/${editedId}`, {
      headers: { 'x-cms-schema-hash': HASH },
      body: { frontmatter: { title: 'After review' }, body: 'Hello.', draftRevision: 1 },
    });
    expect(edited.status, edited.text).toBe(200);
    expect((await server.request('DELETE', `/api/v1/content/${goneId}`)).status).toBe(200);

    await page.goto(studio(`/releases/${releaseId}`));
    await page.getByRole('heading', { name: 'Spring cleaning' }).waitFor();
    await page.getByText('1 document was changed since added').waitFor();
    expect(await page.getByRole('cell', { name: 'Changed since added' }).isVisible()).toBe(true);

    const publishNow = async () => {
      await page.getByRole('button', { name: 'Publish now' }).click();
      await page
        .getByRole('dialog', { name: 'Publish “Spring cleaning” now?' })
        .getByRole('button', { name: 'Publish now' })
        .click();
    };
    await publishNow();
    await page.getByText('Not published: see the reasons beside the documents.').waitFor();
    await page.getByText('Failed: the document was deleted').waitFor();
    expect((await apiGet(`/api/v1/releases/${releaseId}`)).data.status).toBe('failed');
    expect((await apiGet(`/api/v1/content/${editedId}?draft=true`)).data.publishedVersion).toBeNull();
    expect(await seriousViolations(page)).toEqual([]);

    await page.getByRole('button', { name: 'Remove notes/gone' }).click();
    await page.getByText('Removed notes/gone from the release.').waitFor();
    await publishNow();
    await page.getByText('Published: every document of the release is out.').waitFor();
    expect((await apiGet(`/api/v1/content/${editedId}`)).data.frontmatter.title).toBe('After review');

    await page.getByRole('button', { name: 'Revert' }).click();
    await page
      .getByRole('dialog', { name: 'Revert “Spring cleaning”?' })
      .getByRole('button', { name: 'Revert' })
      .click();
    await page.getByRole('heading', { name: 'Revert "Spring cleaning"' }).waitFor();
    const inverseId = new URL(page.url()).pathname.split('/').pop() as string;
    expect(inverseId).not.toBe(releaseId);
    expect((await apiGet(`/api/v1/releases/${releaseId}`)).data).toMatchObject({
      status: 'reverted',
      revertedBy: inverseId,
    });
    // The release published the note for the first time: its revert unpublishes it.
    await page.getByRole('cell', { name: 'Unpublished' }).waitFor();
    expect((await apiGet(`/api/v1/content/${editedId}?draft=true`)).data.publishedVersion).toBeNull();
  });
});
