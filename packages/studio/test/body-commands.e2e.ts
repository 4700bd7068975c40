import { computeSchemaHash, type ResolvedSchema } from '@cms/core';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { field } from '../../server/test/content/fixtures.js';
import { pasteImage } from './support/body-images.js';
import {
  createFirstAdmin,
  launchBrowser,
  type StudioServer,
  screenshots,
  seriousViolations,
  signInAs,
  startStudioServer,
} from './support/studio-harness.js';

/**
 * The body's commands on a Windows (CRLF) document in Chromium: the toolbar and its keys, pasted
 * images one after the other, alt text typed in the body reaching the media file, and Esc then Tab
 * leaving the editor without touching the text (body-commands.test.ts runs every command at random
 * places of the fidelity corpus without a browser).
 */
const SCHEMA: ResolvedSchema = {
  types: [
    { name: 'note', directory: 'notes', localized: false, fields: { title: field('string', { required: true }) } },
  ],
};
const HASH = computeSchemaHash(SCHEMA);
const BODY = 'First paragraph.\r\n\r\nSecond with words\r\n\r\nThird paragraph here.\r\n';

describe('body commands on a CRLF document in Chromium', () => {
  let server: StudioServer;
  let browser: Browser;
  let page: Page;

  const create = async (path: string, body: string) => {
    const response = await server.request('POST', '/api/v1/content', {
      headers: { 'x-cms-schema-hash': HASH },
      body: { type: 'note', path, frontmatter: { title: path }, body },
    });
    expect(response.status, response.text).toBe(201);
    return response.body.data.documentId as string;
  };
  const bodyOf = async (id: string) =>
    (await server.request('GET', `/api/v1/content/${id}?draft=true`)).body.data.body as string;
  const open = async (id: string) => {
    await page.goto(`${server.url}/studio/content/note/${id}`);
    await page.locator('.cm-content').waitFor();
    await page.getByText('No changes').waitFor();
    await page.locator('.cm-content').click();
    await page.keyboard.press('Control+Home');
  };
  const save = async () => {
    await page.getByText('Unsaved changes').waitFor();
    await page.keyboard.press('Control+s');
    await page.getByText(/^Saved at /).waitFor();
  };
  const press = async (key: string, times = 1) => {
    for (let i = 0; i < times; i += 1) await page.keyboard.press(key);
  };

  beforeAll(async () => {
    [server, browser] = await Promise.all([startStudioServer(), launchBrowser()]);
    await createFirstAdmin(server, SCHEMA);
    page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    await signInAs(page, server);
  });

  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  it('bolds and heads exactly the words and line chosen, keeping every CRLF', async () => {
    const id = await create('crlf-format', BODY);
    await open(id);
    // "words" at the end of line 3, with the toolbar's button.
    await press('ArrowDown', 2);
    await press('End');
    await press('Control+Shift+ArrowLeft');
    await page.getByRole('toolbar', { name: 'Formatting' }).getByRole('button', { name: 'Bold' }).click();
    // "First" with the key, then a heading on line 5 with its key.
    await press('Control+Home');
    await press('Control+Shift+ArrowRight');
    await press('Control+b');
    await press('Control+End');
    await press('ArrowUp');
    await press('Control+Alt+1');
    await save();
    expect(await bodyOf(id)).toBe(
      '**First** paragraph.\r\n\r\nSecond with **words**\r\n\r\n## Third paragraph here.\r\n',
    );
  });

  it('bolds the text of a whole list line, not its marker', async () => {
    const id = await create('crlf-list', '- first item\r\n- second item\r\n');
    await open(id);
    await press('Shift+End');
    await press('Control+b');
    await save();
    expect(await bodyOf(id)).toBe('- **first item**\r\n- second item\r\n');
  });

  it('pastes images as paragraphs of their own, never one inside the alt text of another, and keeps the alt text typed', async () => {
    const id = await create('crlf-images', BODY);
    await open(id);
    await press('End');
    await pasteImage(page, 'red-dot.png');
    await page.getByText(/^Inserted red-dot\.png\./).waitFor();
    // The first image's alt text is selected: a second paste goes after that image, not into it.
    await pasteImage(page, 'blue-dot.png');
    await page.getByText(/^Inserted blue-dot\.png\./).waitFor();
    await page.keyboard.type('A blue dot on white');
    await save();
    const body = await bodyOf(id);
    expect(body).toMatch(
      /^First paragraph\.\r\n\r\n!\[red dot\]\(\/media\/[^)]+\/red-dot\.png\)\r\n\r\n!\[A blue dot on white\]\(\/media\/[^)]+\/blue-dot\.png\)\r\n\r\nSecond with words\r\n\r\nThird paragraph here\.\r\n$/,
    );
    expect(body).not.toContain('Uploading');
    // What was typed as the alt text is the media file's alt text too; the proposed one was not stored.
    const altOf = async (filename: string) => {
      const media = await server.request('GET', '/api/v1/media');
      return media.body.data.find((asset: { filename: string }) => asset.filename === filename)?.alt ?? null;
    };
    await expect.poll(() => altOf('blue-dot.png'), { timeout: 20_000 }).toBe('A blue dot on white');
    expect((await altOf('red-dot.png')) ?? '').toBe('');
    await screenshots(page, 'body-crlf-images');
  });

  it('lets Esc then Tab leave the editor with a selection, changing nothing', async () => {
    const id = await create('crlf-escape', BODY);
    await open(id);
    await press('Shift+ArrowDown');
    await press('Escape');
    await press('Tab');
    expect(await page.evaluate('document.activeElement?.classList.contains("cm-content")')).toBe(false);
    expect(await page.evaluate('Boolean(document.activeElement?.closest(".cm-editor"))')).toBe(false);
    await page.getByText('No changes').waitFor();
    // Back in the editor, Tab indents again (the escape lasts one Tab).
    await page.locator('.cm-content').click();
    await press('Control+Home');
    await press('Tab');
    await save();
    expect(await bodyOf(id)).toMatch(/^\s+First paragraph\.\r\n/);
  });

  it('previews GFM through the shared pipeline: styled tables and quotes, task boxes with names, raw HTML sanitised', async () => {
    const body = [
      '| Plan | Done |',
      '|:--|--:|',
      '| Write | yes |',
      '',
      '> A quoted line',
      '',
      '- [x] Draft the intro',
      '- [ ] Check the links',
      '',
      '<div onclick="alert(1)">Raw <b>HTML</b></div>',
      '',
    ].join('\r\n');
    const id = await create('crlf-preview', body);
    await open(id);
    const preview = page.getByRole('region', { name: 'Preview' });
    await preview.getByRole('checkbox', { name: 'Draft the intro' }).waitFor();
    expect(await preview.getByRole('checkbox', { name: 'Draft the intro' }).isChecked()).toBe(true);
    await preview.getByRole('checkbox', { name: 'Check the links' }).waitFor();
    await preview.getByRole('cell', { name: 'Write' }).waitFor();
    // A writer sees their HTML (sanitised: no handler survives).
    await preview.getByText('Raw HTML').waitFor();
    expect(await preview.locator('[onclick]').count()).toBe(0);
    const styles = await page.evaluate(`(() => {
      const cell = document.querySelector('.prose td');
      const quote = document.querySelector('.prose blockquote');
      return { cell: getComputedStyle(cell).borderTopStyle, quote: getComputedStyle(quote).borderLeftStyle };
    })()`);
    expect(styles).toEqual({ cell: 'solid', quote: 'solid' });
    // No serious or critical violation in the preview (task boxes without names were critical).
    expect(await seriousViolations(page)).toEqual([]);
    await screenshots(page, 'body-preview-gfm');
  });
});
