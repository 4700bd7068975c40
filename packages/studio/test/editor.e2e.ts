import { computeSchemaHash, type ResolvedSchema } from '@cms/core';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { field } from '../../server/test/content/fixtures.js';
import {
  ADMIN_EMAIL,
  createFirstAdmin,
  launchBrowser,
  SCREENSHOTS,
  type StudioServer,
  screenshots,
  seriousViolations,
  signInAs,
  startStudioServer,
} from './support/studio-harness.js';

/**
 * The body editor in Chromium: its line numbers sit beside their lines, MDX syntax errors show in
 * the editor while typing, and how long a list of 20 takes to appear (reported, never asserted).
 */
const SCHEMA: ResolvedSchema = {
  types: [
    {
      name: 'note',
      directory: 'notes',
      localized: false,
      fields: { title: field('string', { required: true }), rank: field('number') },
    },
  ],
};
const HASH = computeSchemaHash(SCHEMA);

/** Long and short lines, headings, a list, a code block and an empty line: every line height the body has. */
const BODY = [
  '# A heading',
  '',
  'A paragraph long enough to wrap at the narrow width, so that one logical line takes several rows on the screen and the next line number has to move down with it.',
  '',
  '## A smaller heading',
  '',
  '* one',
  '* two',
  '',
  '```ts',
  'const x = 1;',
  '```',
  '',
  '<div class="raw">HTML</div>',
  '',
  'The last line.',
].join('\n');

describe('the body editor in Chromium', () => {
  let server: StudioServer;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;

  const studio = (path: string) => `${server.url}/studio${path}`;
  const create = async (path: string, format: 'md' | 'mdx', body: string, title = 'A note') => {
    const response = await server.request('POST', '/api/v1/content', {
      headers: { 'x-cms-schema-hash': HASH },
      body: { type: 'note', path, format, frontmatter: { title }, body },
    });
    expect(response.status, response.text).toBe(201);
    return response.body.data as { documentId: string; body: string; draftRevision: number };
  };
  const read = async (id: string) => (await server.request('GET', `/api/v1/content/${id}?draft=true`)).body.data;

  beforeAll(async () => {
    [server, browser] = await Promise.all([startStudioServer(), launchBrowser()]);
    await createFirstAdmin(server, SCHEMA);
    context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    page = await context.newPage();
    await signInAs(page, server);
  });

  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  /** Each line number's box and its line's box (and their first rows of text), measured in the page. */
  // In-page code is written as strings (as in the other browser tests): the tests compile without DOM types.
  const gutterRows = () =>
    page.evaluate(`(() => {
      const textTop = (node) => {
        const range = document.createRange();
        range.selectNodeContents(node);
        return range.getClientRects()[0]?.top ?? null;
      };
      const numbers = [...document.querySelectorAll('.cm-lineNumbers .cm-gutterElement')].filter(
        (el) => getComputedStyle(el).visibility !== 'hidden',
      );
      const lines = [...document.querySelectorAll('.cm-content .cm-line')];
      return numbers.map((number) => {
        const line = lines[Number(number.textContent) - 1];
        return {
          number: Number(number.textContent),
          boxes: [number.getBoundingClientRect().top, line.getBoundingClientRect().top],
          text: [textTop(number), line.textContent ? textTop(line) : null],
        };
      });
    })()`) as Promise<Array<{ number: number; boxes: [number, number]; text: [number | null, number | null] }>>;
  /** Two animation frames: CodeMirror measures in one and draws in the next. */
  const settled = () =>
    page.evaluate('new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(() => done(null))))');
  const expectAligned = async (where: string) => {
    const rows = await gutterRows();
    expect(rows.map((r) => r.number)).toEqual(Array.from({ length: BODY.split('\n').length }, (_, i) => i + 1));
    for (const { number, boxes, text } of rows) {
      const [gutter, line] = boxes;
      expect(Math.abs(gutter - line), `line ${number}'s box, ${where}`).toBeLessThanOrEqual(1);
      if (text[1] !== null) {
        expect(Math.abs((text[0] as number) - text[1]), `line ${number}'s text, ${where}`).toBeLessThanOrEqual(1);
      }
    }
  };

  it('puts every line number beside its line, at 1280 and at 768 px', async () => {
    const created = await create('gutter', 'md', BODY);
    for (const width of [1280, 768]) {
      await page.setViewportSize({ width, height: 900 });
      await page.goto(studio(`/content/note/${created.documentId}`));
      await page.locator('.cm-content').waitFor();
      await settled();
      await expectAligned(`${width} px`);
      await page.screenshot({ path: `${SCREENSHOTS}editor-gutter-${width}.png` });
    }
  });

  it('lines the numbers up also when the editor opens below the fold and is scrolled to', async () => {
    const created = await create('gutter-below', 'md', BODY);
    for (const width of [1280, 768]) {
      // A short window: the editor starts outside it, where CodeMirror only estimates line heights.
      await page.setViewportSize({ width, height: 240 });
      await page.goto(studio(`/content/note/${created.documentId}`));
      await page.locator('.cm-content').waitFor();
      await page.locator('.cm-content').scrollIntoViewIfNeeded();
      await settled();
      await expectAligned(`${width} px, scrolled to`);
    }
    await page.setViewportSize({ width: 1280, height: 900 });
  });

  it('shows an MDX syntax error in the editor while typing, before anything is saved', async () => {
    const body = ['# Notes', '', '<Callout type="note">', '', 'Text inside.', '', '</Callout>'].join('\n');
    const created = await create('mdx-errors', 'mdx', body);
    await page.goto(studio(`/content/note/${created.documentId}`));
    const editor = page.locator('.cm-content');
    const problem = page.locator('.mdx-problem');
    await editor.waitFor();
    await page.getByText('No changes').waitFor();
    expect(await problem.textContent()).toBe('');
    expect(await page.locator('.cm-lintRange-error').count()).toBe(0);

    // A broken expression on a new line 9.
    await page.locator('.cm-line').nth(6).click();
    await page.keyboard.press('Control+End');
    await page.keyboard.type('\n\nInline {1 + } here.');
    await problem.getByText(/^MDX error at line 9, column \d+: Could not parse expression with acorn/).waitFor();
    await page.locator('.cm-line').nth(8).locator('.cm-lintRange-error').waitFor();
    await page.locator('.cm-lint-marker-error').waitFor();
    expect(await editor.getAttribute('aria-invalid')).toBe('true');
    expect(await editor.getAttribute('aria-describedby')).toBe(await problem.getAttribute('id'));
    expect(await seriousViolations(page)).toEqual([]);
    await screenshots(page, 'editor-mdx-error');
    // Nothing was written: the error shows before saving.
    expect((await read(created.documentId)).draftRevision).toBe(1);

    // Fixed, the error goes away.
    await page.keyboard.press('Home');
    await page.keyboard.press('Shift+End');
    await page.keyboard.type('Inline {1 + 1} here.');
    await page.locator('.cm-lint-marker-error').waitFor({ state: 'detached' });
    expect(await problem.textContent()).toBe('');
    expect(await editor.getAttribute('aria-invalid')).toBeNull();

    // A closing tag that does not match the open one, on line 7.
    await page.locator('.cm-line').nth(6).click();
    await page.keyboard.press('Home');
    await page.keyboard.press('Shift+End');
    await page.keyboard.type('</Chart>');
    await problem
      .getByText(
        'MDX error at line 7, column 1: Unexpected closing tag `</Chart>`, expected corresponding closing tag for `<Callout>` (3:1-3:22)',
      )
      .waitFor();
    await page.locator('.cm-line').nth(6).locator('.cm-lintRange-error', { hasText: '</Chart>' }).waitFor();

    // The error informs, it does not hold the work back: a draft with it still saves.
    await page.keyboard.press('Control+s');
    await page.getByText(/^Saved at/).waitFor();
    expect((await read(created.documentId)).body).toBe(
      ['# Notes', '', '<Callout type="note">', '', 'Text inside.', '', '</Chart>', '', 'Inline {1 + 1} here.'].join(
        '\n',
      ),
    );
    await problem.getByText(/^MDX error at line 7/).waitFor();
  });

  it('does not check a Markdown body as MDX', async () => {
    const created = await create('markdown-braces', 'md', 'Braces {1 + } and <Open> without a close.');
    await page.goto(studio(`/content/note/${created.documentId}`));
    await page.locator('.cm-content').waitFor();
    await page.locator('.cm-line').first().click();
    await page.keyboard.press('End');
    await page.keyboard.type(' </Other>');
    await page.getByText('Unsaved changes').waitFor();
    // The MDX checker is not even loaded for Markdown: no lint gutter, no message.
    expect(await page.locator('.cm-gutter-lint').count()).toBe(0);
    expect(await page.locator('.mdx-problem').textContent()).toBe('');
    expect(await page.locator('.cm-content').getAttribute('aria-invalid')).toBeNull();
  });

  it('fetches the HTML grammars only for a body with a `<`, and then closes a typed tag as before', async () => {
    const htmlChunks: string[] = [];
    const listen = (request: { url(): string }) => {
      if (/\/assets\/markdown-html-[^/]+\.js$/.test(request.url())) htmlChunks.push(request.url());
    };
    page.on('request', listen);
    try {
      const created = await create('no-html-yet', 'md', 'Plain words only.');
      await page.goto(studio(`/content/note/${created.documentId}`));
      await page.locator('.cm-content').waitFor();
      await page.getByText('No changes').waitFor();
      expect(htmlChunks).toEqual([]);

      await page.locator('.cm-line').first().click();
      await page.keyboard.press('End');
      const fetched = page.waitForResponse((response) => /\/assets\/markdown-html-[^/]+\.js$/.test(response.url()));
      await page.keyboard.press('Enter');
      await page.keyboard.press('Enter');
      await page.keyboard.type('<');
      await fetched;
      await settled();
      // `markdown()`'s HTML support, as before the split: `>` after `<div` in an HTML block closes the tag.
      await page.keyboard.type('div>');
      await page.locator('.cm-line').nth(2).getByText('<div></div>', { exact: true }).waitFor();
      expect(htmlChunks).toHaveLength(1);
    } finally {
      page.off('request', listen);
    }
  });
  it('reports how long a list of 20 takes to appear (measured, not asserted)', async () => {
    await Promise.all(Array.from({ length: 25 }, (_, i) => create(`list/n-${i}`, 'md', `Body ${i}`, `Note ${i}`)));
    const timed = await context.newPage();
    // Installed before the Studio's scripts run: the moment the table first holds 20 rows.
    await timed.addInitScript(`
      new MutationObserver((_changes, observer) => {
        if (document.querySelectorAll('table.list tbody tr').length >= 20) {
          window.listRenderedAt = performance.now();
          observer.disconnect();
        }
      }).observe(document, { childList: true, subtree: true });
    `);
    const figures: Array<{ apiRequests: number }> = [];
    // The first load fetches the Studio's files; the second is what a returning editor sees (cached files).
    for (const run of ['first', 'cached'] as const) {
      await timed.goto(studio('/content/note'));
      await timed.getByText(/^1–20 of \d+$/).waitFor();
      expect(await timed.locator('table.list tbody tr').count()).toBe(20);
      const figure = (await timed.evaluate(`(() => {
        const rendered = window.listRenderedAt;
        const api = performance.getEntriesByType('resource').filter((e) => e.name.includes('/api/v1/'));
        const list = api.find((e) => /\\/api\\/v1\\/content\\?/.test(e.name));
        const nav = performance.getEntriesByType('navigation')[0];
        return {
          navigationToList: Math.round(rendered),
          answerToList: Math.round(rendered - (list ? list.responseEnd : Number.NaN)),
          scriptsReady: Math.round(nav.domContentLoadedEventEnd),
          apiRequests: api.length,
          apiWaterfall: api.map((e) => new URL(e.name).pathname + ' ' + Math.round(e.startTime) + '-' + Math.round(e.responseEnd)),
        };
      })()`)) as {
        navigationToList: number;
        answerToList: number;
        scriptsReady: number;
        apiRequests: number;
        apiWaterfall: string[];
      };
      console.log(
        `list of 20 (${run} load): ${figure.navigationToList} ms from navigation, ${figure.answerToList} ms after the list's answer; ` +
          `scripts ready at ${figure.scriptsReady} ms; ${figure.apiRequests} API requests: ${figure.apiWaterfall.join(', ')}`,
      );
      figures.push(figure);
    }
    // What this test checks is that the list loads with one request for its rows, not one per row.
    expect(figures.every((f) => f.apiRequests <= 5)).toBe(true);
    await timed.close();
  });

  /** The draft this browser keeps for a document (IndexedDB, as the Studio stores it), or null. */
  const localDraft = (p: Page, documentId: string) =>
    p.evaluate(`(async (suffix) => {
      if (!(await indexedDB.databases()).some((db) => db.name === 'cms-studio')) return null;
      return new Promise((resolve) => {
        const request = indexedDB.open('cms-studio');
        request.onerror = () => resolve(null);
        request.onsuccess = () => {
          const db = request.result;
          if (!db.objectStoreNames.contains('drafts')) {
            db.close();
            resolve(null);
            return;
          }
          const all = db.transaction('drafts').objectStore('drafts').getAll();
          all.onsuccess = () => {
            db.close();
            resolve(all.result.find((draft) => draft.key.endsWith(suffix)) ?? null);
          };
        };
      });
    })(${JSON.stringify(`/default/production/${documentId}`)})`) as Promise<{
      key: string;
      frontmatter: Record<string, unknown>;
      body: string;
      draftRevision: number;
    } | null>;
  /** Waits until the kept draft holds the edits (it is written a moment after typing stops), or is gone. */
  const waitForDraft = async (p: Page, documentId: string, present: boolean) => {
    await expect
      .poll(async () => (await localDraft(p, documentId))?.body === 'First words. More words.', { timeout: 10_000 })
      .toBe(present);
    return localDraft(p, documentId);
  };
  /** A new tab that opens the document and edits it without saving (closed later without asking). */
  const editTitleAndBody = async (documentId: string) => {
    const p = await context.newPage();
    await p.goto(studio(`/content/note/${documentId}`));
    await p.getByText('No changes').waitFor();
    await p.getByLabel('Title').fill('Edited in the browser');
    await p.locator('.cm-line').last().click();
    await p.keyboard.press('Control+End');
    await p.keyboard.type(' More words.');
    await p.getByText('Unsaved changes').waitFor();
    return p;
  };

  it('keeps unsaved edits in this browser and offers them back, cleared after the save', async () => {
    const created = await create('local-draft', 'md', 'First words.', 'Draft me');
    const first = await editTitleAndBody(created.documentId);
    const kept = await waitForDraft(first, created.documentId, true);
    // Kept under the signed-in person's id: another person signing in to this browser is not offered it.
    const me = (await server.request('GET', '/api/v1/users', { project: null, environment: null })).body.data.find(
      (user: { email: string }) => user.email === ADMIN_EMAIL,
    );
    expect(kept?.key).toBe(`${me.id}/default/production/${created.documentId}`);
    expect(kept).toMatchObject({
      frontmatter: { title: 'Edited in the browser' },
      body: 'First words. More words.',
      draftRevision: 1,
    });

    // The same document in a second tab: offered, not applied.
    const second = await context.newPage();
    await second.goto(studio(`/content/note/${created.documentId}`));
    const banner = second.getByText(/^This browser kept unsaved changes from/);
    await banner.waitFor();
    expect(await banner.textContent()).toMatch(/Changed: Title, Body\.$/);
    expect(await second.getByLabel('Title').inputValue()).toBe('Draft me');
    expect(await seriousViolations(second)).toEqual([]);
    // Offering it does not use it up: until the person chooses, a reload offers it again.
    expect(await localDraft(second, created.documentId)).toMatchObject({ body: 'First words. More words.' });
    await second.reload();
    await banner.waitFor();
    await second.getByRole('button', { name: 'Restore my changes' }).click();
    expect(await second.getByLabel('Title').inputValue()).toBe('Edited in the browser');
    await second.locator('.cm-content').getByText('First words. More words.').waitFor();
    await second.keyboard.press('Control+s');
    await second.getByText(/^Saved at/).waitFor();
    expect(await read(created.documentId)).toMatchObject({
      frontmatter: { title: 'Edited in the browser' },
      body: 'First words. More words.',
      draftRevision: 2,
    });
    expect(await waitForDraft(second, created.documentId, false)).toBeNull();
    await Promise.all([first.close(), second.close()]);
  });

  it('warns that a kept draft started from an older revision, and saving it asks how to merge', async () => {
    const created = await create('stale-draft', 'md', 'First words.', 'Stale me');
    const first = await editTitleAndBody(created.documentId);
    await waitForDraft(first, created.documentId, true);
    // Someone else saves meanwhile.
    const theirs = await server.request('PUT', `/api/v1/content/${created.documentId}`, {
      headers: { 'x-cms-schema-hash': HASH },
      body: { frontmatter: { title: 'Their title' }, body: 'First words.', draftRevision: 1 },
    });
    expect(theirs.status, theirs.text).toBe(200);

    const second = await context.newPage();
    await second.goto(studio(`/content/note/${created.documentId}`));
    await second.getByText(/they started from revision 1; the server is at 2 now/).waitFor();
    await second.getByRole('button', { name: 'Restore my changes' }).click();
    await second.keyboard.press('Control+s');
    await second.getByRole('heading', { name: 'Someone else saved this document meanwhile' }).waitFor();
    // Nothing was overwritten, and the kept draft stays until a save goes through.
    expect((await read(created.documentId)).frontmatter.title).toBe('Their title');
    expect(await waitForDraft(second, created.documentId, true)).toMatchObject({ draftRevision: 1 });
    await Promise.all([first.close(), second.close()]);
  });

  it('forgets every kept draft at sign-out', async () => {
    const created = await create('signed-out-draft', 'md', 'First words.', 'Sign out with me');
    const p = await editTitleAndBody(created.documentId);
    await waitForDraft(p, created.documentId, true);
    // Leaving with unsaved changes asks first; the person says yes.
    p.once('dialog', (dialog) => void dialog.accept());
    await p.getByRole('button', { name: 'Sign out' }).click();
    await p.getByRole('button', { name: 'Sign in' }).waitFor();
    expect(await localDraft(p, created.documentId)).toBeNull();
    await p.close();
  });
});
