import { computeSchemaHash, type ResolvedSchema } from '@cms/core';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { field } from '../../server/test/content/fixtures.js';
import { PNG_BASE64, pasteImage } from './support/body-images.js';
import {
  ADMIN_EMAIL,
  createEditor,
  createFirstAdmin,
  launchBrowser,
  type StudioServer,
  seriousViolations,
  signInAs,
  startStudioServer,
} from './support/studio-harness.js';

/**
 * The Studio for people who write all day (decisions.md §8 "Studio for writers"): the body toolbar
 * and its keys, images pasted or dropped into the body, and the delete dialog's "Referenced by" list
 * (presence across two people's browsers: together.e2e.ts).
 */
const SCHEMA: ResolvedSchema = {
  types: [
    { name: 'author', directory: 'authors', localized: false, fields: { name: field('string', { required: true }) } },
    {
      name: 'post',
      directory: 'posts',
      localized: false,
      fields: {
        title: field('string', { required: true }),
        author: field('reference', { reference: { targetType: 'author' } }),
      },
    },
  ],
};
const HASH = computeSchemaHash(SCHEMA);
const EDITOR_EMAIL = 'bo@example.test';

describe('writing in the Studio', () => {
  let server: StudioServer;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;

  const studio = (path: string) => `${server.url}/studio${path}`;
  const create = async (type: string, path: string, frontmatter: Record<string, unknown>, body = '') => {
    const response = await server.request('POST', '/api/v1/content', {
      headers: { 'x-cms-schema-hash': HASH },
      body: { type, path, frontmatter, body },
    });
    expect(response.status, response.text).toBe(201);
    return response.body.data.documentId as string;
  };
  const bodyOf = async (id: string) =>
    (await server.request('GET', `/api/v1/content/${id}?draft=true`)).body.data.body as string;
  /** Opens a document and waits for its body editor. */
  const open = async (into: Page, type: string, id: string) => {
    await into.goto(studio(`/content/${type}/${id}`));
    await into.locator('.cm-content').waitFor();
  };
  /** Saves with the keys, so the body editor keeps focus and selection. */
  const save = async () => {
    await page.getByText('Unsaved changes').waitFor();
    await page.keyboard.press('Control+s');
    await page.getByText(/^Saved at /).waitFor();
  };

  beforeAll(async () => {
    [server, browser] = await Promise.all([startStudioServer(), launchBrowser()]);
    await createFirstAdmin(server, SCHEMA);
    await createEditor(server, EDITOR_EMAIL);
    context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    page = await context.newPage();
    await signInAs(page, server, ADMIN_EMAIL);
  });

  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  it('formats the selection from the toolbar and with the keys, in the marker style the body already uses', async () => {
    const id = await create('post', 'posts/toolbar', { title: 'Toolbar' }, 'Hello world\n\nSome *em* here\n');
    await open(page, 'post', id);
    const toolbar = page.getByRole('toolbar', { name: 'Formatting' });
    for (const label of ['Bold', 'Italic', 'Link', 'Heading', 'Bulleted list', 'Insert image']) {
      await toolbar.getByRole('button', { name: label, exact: true }).waitFor();
    }
    const text = page.locator('.cm-content');
    await text.click();
    // Select "world" on the first line: Home, then past "Hello ", then shift-select five characters.
    await page.keyboard.press('Control+Home');
    for (let i = 0; i < 6; i += 1) await page.keyboard.press('ArrowRight');
    for (let i = 0; i < 5; i += 1) await page.keyboard.press('Shift+ArrowRight');
    await toolbar.getByRole('button', { name: 'Bold' }).click();
    // The selection stays on the word: the key toggles italic (single stars, as the body writes them).
    await page.keyboard.press('Control+i');
    await page.keyboard.press('Control+Alt+1');
    await save();
    expect(await bodyOf(id)).toBe('## Hello ***world***\n\nSome *em* here\n');

    // Ctrl+B on the same selection takes the bold away again; the list button bullets the last line.
    await page.keyboard.press('Control+b');
    await page.keyboard.press('Control+End');
    await page.keyboard.press('ArrowUp');
    await toolbar.getByRole('button', { name: 'Bulleted list' }).click();
    await save();
    expect(await bodyOf(id)).toBe('## Hello *world*\n\n- Some *em* here\n');

    // Keyboard only: the toolbar is one tab stop, the arrow keys move along it.
    await toolbar.getByRole('button', { name: 'Bold' }).focus();
    await page.keyboard.press('ArrowRight');
    expect(await page.evaluate('document.activeElement.textContent')).toBe('Italic');
    expect(await seriousViolations(page)).toEqual([]);
  });

  it('uploads a pasted image and inserts it with its alt text selected to describe it', async () => {
    const id = await create('post', 'posts/paste', { title: 'Paste' }, 'Before.\n');
    await open(page, 'post', id);
    await page.locator('.cm-content').click();
    await page.keyboard.press('Control+End');
    await pasteImage(page, 'red-dot.png');
    await page.getByText(/^Inserted red-dot\.png\./).waitFor();
    // The proposed alt text is selected: typing replaces it.
    await page.keyboard.type('A red dot');
    await save();
    const body = await bodyOf(id);
    // A paragraph of its own, at the server's path (no CMS_PUBLIC_URL here: its listen address means nothing to a site).
    expect(body).toMatch(/^Before\.\n\n!\[A red dot\]\(\/media\/[^)]+red-dot\.png\)$/);
    const media = await server.request('GET', '/api/v1/media');
    expect(media.body.data.map((asset: { filename: string }) => asset.filename)).toContain('red-dot.png');
  });

  it('uploads a dropped image and inserts it where it was dropped, a paragraph apart from the text', async () => {
    const id = await create('post', 'posts/drop', { title: 'Drop' }, 'First line\n\nLast line\n');
    await open(page, 'post', id);
    await page.evaluate(`(() => {
      const bytes = Uint8Array.from(atob('${PNG_BASE64}'), (c) => c.charCodeAt(0));
      const data = new DataTransfer();
      data.items.add(new File([bytes], 'dropped_photo.png', { type: 'image/png' }));
      const line = [...document.querySelectorAll('.cm-line')].find((el) => el.textContent === 'Last line');
      const box = line.getBoundingClientRect();
      document.querySelector('.cm-content').dispatchEvent(
        new DragEvent('drop', { dataTransfer: data, clientX: box.left + 1, clientY: box.top + box.height / 2, bubbles: true, cancelable: true }),
      );
    })()`);
    await page.getByText(/^Inserted dropped_photo\.png\./).waitFor();
    await save();
    expect(await bodyOf(id)).toMatch(
      /^First line\n\n!\[dropped photo\]\(\/media\/[^)]+dropped_photo\.png\)\n\nLast line\n$/,
    );
  });

  it('lists "Referenced by" in the delete dialog, and deletes only when confirmed', async () => {
    const ada = await create('author', 'authors/ada', { name: 'Ada' });
    await create('post', 'posts/by-ada', { title: 'A post by Ada', author: ada });
    await open(page, 'author', ada);
    await page.getByRole('button', { name: 'Delete' }).click();
    const dialog = page.getByRole('dialog', { name: 'Delete authors/ada?' });
    await dialog.getByRole('heading', { name: 'Referenced by' }).waitFor();
    await dialog.getByRole('link', { name: 'A post by Ada' }).waitFor();
    await dialog.getByText('1 document points here.', { exact: false }).waitFor();
    expect(await seriousViolations(page)).toEqual([]);
    // Esc (or Cancel) keeps the document.
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
    expect((await server.request('GET', `/api/v1/content/${ada}?draft=true`)).status).toBe(200);
    await page.getByRole('button', { name: 'Delete' }).click();
    await dialog.getByRole('button', { name: 'Delete anyway' }).click();
    await page.waitForURL(/\/studio\/content\/author$/);
    expect((await server.request('GET', `/api/v1/content/${ada}?draft=true`)).status).toBe(404);
  });
});
