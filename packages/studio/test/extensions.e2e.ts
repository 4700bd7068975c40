import type { ResolvedSchema } from '@cms/core';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FIRST_PARTY_MODULES } from '../../server/src/modules/first-party.js';
import type { ServerModule } from '../../server/src/modules/module-types.js';
import { BLOG_SCHEMA, field, hashHeader, syncBody } from '../../server/test/content/fixtures.js';
import {
  ADMIN_EMAIL,
  ADMIN_PASSWORD,
  type InPage,
  launchBrowser,
  type StudioServer,
  screenshots,
  seriousViolations,
  startStudioServer,
} from './support/studio-harness.js';

/** A module from a server newer than this Studio build: its component is not compiled in. */
const NEWER_MODULE: ServerModule = {
  manifest: { id: 'test.newer', version: '1.0.0', apiVersion: '1', dependsOn: ['domain.content'] },
  studio: {
    slotWidgets: [{ id: 'test.futureWidget', slot: 'dashboard.main', title: 'Future', component: 'test.future' }],
  },
  setup: () => ({}),
};

/** What `preview` (extends production) layers on top: `post` changes `title`, adds `subtitle`; a new `note`. */
const OVERLAY: ResolvedSchema = {
  types: [
    {
      name: 'post',
      directory: 'posts',
      localized: false,
      fields: {
        title: field('string', { required: true, checks: [{ type: 'max', value: 80 }] }),
        subtitle: field('string', { required: true }),
      },
    },
    { name: 'note', directory: 'notes', localized: false, fields: { text: field('string') } },
  ],
};

/**
 * The extension points end to end: what modules contribute (a slot widget in each slot, a field
 * kind, an editor node, an action override, routes, nav items, settings panels) renders in the
 * Studio; the schema view with an overlay environment; the project settings panel.
 */
describe('Studio extension points in Chromium', () => {
  let server: StudioServer;
  let browser: Browser;
  let page: Page;
  let postId = '';
  const warnings: string[] = [];

  const studio = (path: string) => `${server.url}/studio${path}`;
  const api = (method: string, path: string, body?: unknown, environment = 'production') =>
    server.request(method, `/api/v1${path}`, {
      environment,
      ...(body === undefined ? {} : { body, headers: method === 'GET' ? {} : hashHeader() }),
    });
  /** axe at both widths the Studio supports. */
  const expectAccessible = async () => {
    for (const width of [1280, 768]) {
      await page.setViewportSize({ width, height: 900 });
      expect(await seriousViolations(page), `at ${width} px`).toEqual([]);
    }
    await page.setViewportSize({ width: 1280, height: 900 });
  };

  beforeAll(async () => {
    [server, browser] = await Promise.all([
      startStudioServer({ modules: [...FIRST_PARTY_MODULES, NEWER_MODULE] }),
      launchBrowser(),
    ]);
    page = await (await browser.newContext({ viewport: { width: 1280, height: 900 } })).newPage();
    page.on('console', (message) => {
      if (message.type() === 'warning') warnings.push(message.text());
    });
    expect((await server.request('PUT', '/api/v1/schema/sync', { body: syncBody(BLOG_SCHEMA) })).status).toBe(200);
    const env = await server.request('POST', '/api/v1/environments', {
      environment: null,
      body: { name: 'preview', extends: 'production' },
    });
    expect(env.status, env.text).toBe(201);
    const overlay = await server.request('PUT', '/api/v1/schema/sync', {
      environment: 'preview',
      body: syncBody(OVERLAY),
    });
    expect(overlay.status, overlay.text).toBe(200);
    const post = await api('POST', '/content', {
      type: 'post',
      path: 'extension-points',
      frontmatter: { title: 'Extension points', slug: 'extension-points' },
      body: 'Body.',
    });
    expect(post.status, post.text).toBe(201);
    postId = post.body.data.documentId;
  });

  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  it('fills dashboard.main, shows contributed nav items, and skips what this build lacks', async () => {
    await page.goto(studio(`/setup?token=${server.setupToken}`));
    await page.getByLabel('Email').fill(ADMIN_EMAIL);
    await page.getByLabel('Password', { exact: true }).fill(ADMIN_PASSWORD);
    await page.getByLabel('Repeat password').fill(ADMIN_PASSWORD);
    await page.getByRole('button', { name: 'Create administrator' }).click();
    await page.getByRole('heading', { name: 'Dashboard' }).waitFor();
    const widgets = page.locator('[data-slot="dashboard.main"]');
    await widgets.getByRole('heading', { name: 'Recent changes' }).waitFor();
    await widgets.getByRole('link', { name: 'Extension points' }).waitFor();
    // The newer server's widget is skipped, with a warning naming it; the page is whole.
    expect(await page.getByText('Future').count()).toBe(0);
    expect(warnings.some((w) => w.includes('"test.futureWidget"') && w.includes('"test.future"'))).toBe(true);
    const nav = page.getByRole('navigation', { name: 'Studio' });
    await nav.getByRole('link', { name: 'Schema' }).waitFor();
    await nav.getByRole('link', { name: 'Settings' }).waitFor();
    await expectAccessible();
    await screenshots(page, 'extensions-dashboard');
  });

  it('fills content.list.toolbar: from a type’s list to its fields in the schema', async () => {
    await page.getByRole('navigation', { name: 'Content types' }).getByRole('link', { name: 'Post' }).click();
    const toolbar = page.locator('[data-slot="content.list.toolbar"]');
    await toolbar.getByRole('link', { name: 'Fields of post' }).waitFor();
    await expectAccessible();
    await toolbar.getByRole('link', { name: 'Fields of post' }).click();
    await page.waitForURL(/\/studio\/schema\?type=post$/);
    await page.getByRole('heading', { name: /^Post/ }).waitFor();
    await page.waitForFunction(() => (globalThis as unknown as InPage).document.activeElement?.id === 'type-post');
  });

  it('renders the editor’s contributions: header action, sidebar widget, field kind, editor node, publish override', async () => {
    await page.goto(studio(`/content/post/${postId}`));
    await page.getByText('No changes').waitFor();
    // content.editor.header.actions and content.editor.sidebar
    await page.locator('[data-slot="content.editor.header.actions"]').getByRole('link', { name: 'History' }).waitFor();
    const sidebar = page.locator('[data-slot="content.editor.sidebar"]');
    await sidebar.getByRole('heading', { name: 'Preview' }).waitFor();
    await sidebar.getByRole('button', { name: 'Create preview link' }).click();
    await sidebar.locator('code.token').waitFor();
    // The field kind for strings with a `max`: a live count against the limit.
    await page.getByText('16 of 120 characters').waitFor();
    const title = page.getByLabel('Title');
    await title.fill('x'.repeat(125));
    await page.getByText('125 of 120 characters: 5 too many').waitFor();
    expect(await title.getAttribute('aria-invalid')).toBe('true');
    await title.fill('Extension points, counted');
    await page.getByText('25 of 120 characters').waitFor();
    // The editor node: "Insert media" in the body's toolbar.
    await page.locator('.body-header').getByRole('button', { name: 'Insert media' }).waitFor();
    await page.keyboard.press('Control+s');
    await page.getByText(/Saved at/).waitFor();
    await expectAccessible();
    await screenshots(page, 'extensions-editor');
    // The action override of content.publish: publishing asks for a change summary.
    await page.getByRole('button', { name: 'Publish…' }).click();
    await page.getByLabel('Change summary (optional)').fill('Counted title');
    await page.getByRole('button', { name: 'Publish now' }).click();
    await page.getByText('Published as version 1.').waitFor();
    const versions = await api('GET', `/content/${postId}/versions`);
    expect(versions.body.data[0]).toMatchObject({ version: 1, changeSummary: 'Counted title' });
  });

  it('shows the schema in force with its hash, and what an overlay adds', async () => {
    const production = (await api('GET', '/schema')).body.data;
    const preview = (await api('GET', '/schema', undefined, 'preview')).body.data;
    expect(preview.schemaHash).not.toBe(production.schemaHash);

    await page.getByRole('navigation', { name: 'Studio' }).getByRole('link', { name: 'Schema' }).click();
    await page.getByRole('heading', { name: 'Schema', level: 1 }).waitFor();
    await page.locator('code.hash').getByText(production.schemaHash).waitFor();
    for (const type of ['Author', 'Post', 'Page'])
      await page.getByRole('heading', { name: new RegExp(`^${type}`) }).waitFor();
    expect(await page.getByText('Added here').count()).toBe(0);
    const postFields = page.getByRole('table', { name: 'Fields of Post' });
    await postFields.getByRole('row', { name: /author reference to author/ }).waitFor();
    await expectAccessible();

    await page.getByLabel('Environment').selectOption('preview');
    await page.getByRole('heading', { name: 'Dashboard' }).waitFor();
    await page.goto(studio('/schema'));
    await page.locator('code.hash').getByText(preview.schemaHash).waitFor();
    await page.getByText('This environment extends production').waitFor();
    await page.getByText(/The overlay adds 1 type and changes 1 type/).waitFor();
    const note = page.locator('#type-note');
    await note.getByRole('heading', { name: /^Note/ }).getByText('Added here').waitFor();
    await page.locator('#type-post').getByRole('heading').getByText('Changed here').waitFor();
    const rows = page.getByRole('table', { name: 'Fields of Post' });
    expect(await rows.getByRole('row', { name: /^subtitle/ }).textContent()).toContain('Added here');
    expect(await rows.getByRole('row', { name: /^title/ }).textContent()).toContain('Changed here');
    expect(await rows.getByRole('row', { name: /^slug/ }).textContent()).toContain('Inherited');
    await expectAccessible();
    await screenshots(page, 'extensions-schema-overlay');
    await page.getByLabel('Environment').selectOption('production');
    await page.getByRole('heading', { name: 'Dashboard' }).waitFor();
  });

  it('changes the image upload limit in the project settings panel, and shows refusals', async () => {
    await page.getByRole('navigation', { name: 'Studio' }).getByRole('link', { name: 'Settings' }).click();
    await page.getByRole('heading', { name: 'Settings', level: 1 }).waitFor();
    await page.getByRole('link', { name: 'Project' }).click();
    await page.getByRole('heading', { name: 'Project settings' }).waitFor();
    await page.getByText('Currently: no limit of its own').waitFor();
    await expectAccessible();

    await page.getByLabel('Limit images to').check();
    await page.getByLabel('Largest image').fill('2');
    await page.getByLabel('Unit').selectOption('MB');
    await page.getByRole('button', { name: 'Save settings' }).click();
    await page.getByText('Saved: images up to 2 MB (2,097,152 bytes).').waitFor();
    const settings = () => server.request('GET', '/api/v1/settings', { environment: null });
    expect((await settings()).body.data).toMatchObject({ mediaImageMaxBytes: 2_097_152 });

    // The server refuses a fraction of a byte: its message and code are shown, nothing is stored.
    await page.getByLabel('Unit').selectOption('bytes');
    await page.getByLabel('Largest image').fill('1.5');
    await page.getByRole('button', { name: 'Save settings' }).click();
    const alert = page.getByRole('alert').filter({ hasText: 'Not saved.' });
    await alert.getByText('Error code INVALID_INPUT', { exact: false }).waitFor({ state: 'attached' });
    await alert.getByText(/mediaImageMaxBytes/).waitFor();
    expect(await page.getByLabel('Largest image').inputValue()).toBe('1.5');
    expect((await settings()).body.data).toMatchObject({ mediaImageMaxBytes: 2_097_152 });
    await expectAccessible();
    await screenshots(page, 'extensions-project-settings');

    await page.getByLabel('Largest image').fill('lots');
    await page.getByRole('button', { name: 'Save settings' }).click();
    await alert.getByText('Enter the image upload limit as a number').waitFor();

    await page.getByLabel('No limit of its own').check();
    await page.getByRole('button', { name: 'Save settings' }).click();
    await page.getByText('Saved: images have no limit of their own.').waitFor();
    expect((await settings()).body.data).toMatchObject({ mediaImageMaxBytes: null });
  });
});
