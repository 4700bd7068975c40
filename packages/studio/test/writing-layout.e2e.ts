import { computeSchemaHash, type ResolvedSchema } from '@cms/core';
import type { Browser, BrowserContext, Page } from 'playwright-core';
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
 * The editor laid out for writing (docs/studio.md "Writing"), checked by geometry: the body takes the
 * room at a readable measure, scrolls inside the page under a bar that keeps Save, the status and
 * Publish in sight; focus mode hides the chrome; the preview follows the cursor's line.
 */
const SCHEMA: ResolvedSchema = {
  types: [
    {
      name: 'post',
      directory: 'posts',
      localized: false,
      fields: { title: field('string', { required: true }), summary: field('string') },
    },
  ],
};
const HASH = computeSchemaHash(SCHEMA);

/** What this file's page-side functions read (the tests are typed without the DOM library). */
interface PageElement {
  textContent: string | null;
  scrollTop: number;
  scrollHeight: number;
  clientHeight: number;
  getBoundingClientRect(): { width: number };
  append(child: PageElement): void;
  remove(): void;
}
type Page_ = {
  document: { querySelector(selector: string): PageElement | null; createElement(tag: string): PageElement };
  scrollY: number;
  scrollBy(x: number, y: number): void;
};

/** A long body: 120 headed sections, far taller than any window. */
const LONG_BODY = Array.from(
  { length: 120 },
  (_, i) => `## Section ${i + 1}\n\nParagraph ${i + 1} of a long article, written to need scrolling.\n`,
).join('\n');

describe('the editor laid out for writing', () => {
  let server: StudioServer;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let id: string;

  const studio = (path: string) => `${server.url}/studio${path}`;
  const box = async (selector: string) => {
    const found = await page.locator(selector).first().boundingBox();
    if (!found) throw new Error(`${selector} is not on screen`);
    return found;
  };
  const open = async () => {
    await page.goto(studio(`/content/post/${id}`));
    await page.locator('.cm-content').waitFor();
    await page.locator('.preview .prose').waitFor();
  };

  beforeAll(async () => {
    [server, browser] = await Promise.all([startStudioServer(), launchBrowser()]);
    await createFirstAdmin(server, SCHEMA);
    const created = await server.request('POST', '/api/v1/content', {
      headers: { 'x-cms-schema-hash': HASH },
      body: { type: 'post', path: 'posts/long', frontmatter: { title: 'A long read' }, body: LONG_BODY },
    });
    expect(created.status, created.text).toBe(201);
    id = created.body.data.documentId;
    context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    page = await context.newPage();
    await signInAs(page, server, ADMIN_EMAIL);
  });

  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  for (const width of [1280, 768]) {
    it(`gives the body the room and keeps the bar in sight at ${width} px`, async () => {
      await page.setViewportSize({ width, height: 900 });
      await open();
      const main = await box('.editor-main');
      const editor = await box('.markdown-editor');
      // The body editor is as wide as the editor column (the preview sits below it, not beside it)...
      expect(editor.width).toBeGreaterThan(main.width - 4);
      // ...and no longer the 356 px of before at 1280.
      if (width === 1280) expect(editor.width).toBeGreaterThan(600);
      // Lines are held to a readable measure: the text column is at most 80 characters wide.
      const measure = await page.evaluate(() => {
        const { document } = globalThis as unknown as Page_;
        const content = document.querySelector('.cm-content') as PageElement;
        const probe = document.createElement('span');
        probe.textContent = 'x'.repeat(10);
        document.querySelector('.cm-line')?.append(probe);
        const perChar = probe.getBoundingClientRect().width / 10;
        probe.remove();
        return content.getBoundingClientRect().width / perChar;
      });
      expect(measure).toBeLessThanOrEqual(82);
      // The body scrolls inside its box, which fits in the window, instead of growing with the text.
      expect(editor.height).toBeLessThanOrEqual(900);
      const scrolls = await page.evaluate(() => {
        const scroller = (globalThis as unknown as Page_).document.querySelector('.cm-scroller') as PageElement;
        return scroller.scrollHeight > scroller.clientHeight + 100;
      });
      expect(scrolls).toBe(true);

      // Scrolled down to the body, Save, the status and Publish are still at the top of the window.
      await page.locator('.markdown-editor').scrollIntoViewIfNeeded();
      await page.evaluate(() => (globalThis as unknown as Page_).scrollBy(0, 2000));
      expect(await page.evaluate(() => (globalThis as unknown as Page_).scrollY)).toBeGreaterThan(100);
      for (const control of [
        page.getByRole('button', { name: 'Save', exact: true }),
        // "Publish…": the first-party module's control asks for a change summary.
        page.getByRole('button', { name: /^Publish/ }),
        page.getByRole('status').filter({ hasText: /No changes|Unsaved changes|Saved at/ }),
      ]) {
        const place = await control.boundingBox();
        expect(place, 'a control of the bar is on screen').not.toBeNull();
        expect(place?.y).toBeGreaterThanOrEqual(0);
        expect(place?.y).toBeLessThan(200);
      }
    });
  }

  it('folds the document details away so the body takes the full width', async () => {
    await page.setViewportSize({ width: 1280, height: 900 });
    await open();
    const before = await box('.markdown-editor');
    await page.getByRole('button', { name: 'Hide details' }).click();
    await page.getByRole('complementary', { name: 'Document' }).waitFor({ state: 'detached' });
    const after = await box('.markdown-editor');
    expect(after.width).toBeGreaterThan(before.width + 250);
    await page.getByRole('button', { name: 'Show details' }).click();
    await page.getByRole('complementary', { name: 'Document' }).waitFor();
  });

  it('hides the chrome in focus mode, from the button and with Ctrl+Shift+F', async () => {
    await page.setViewportSize({ width: 1280, height: 900 });
    await open();
    const topbar = page.locator('.topbar');
    const nav = page.getByRole('navigation', { name: 'Studio' });
    const fields = page.getByRole('form', { name: 'Fields' });
    await topbar.waitFor();
    const button = page.getByRole('button', { name: 'Focus mode' });
    expect(await button.getAttribute('aria-keyshortcuts')).toContain('Control+Shift+F');
    await button.click();
    expect(await button.getAttribute('aria-pressed')).toBe('true');
    for (const chrome of [topbar, nav, fields, page.getByRole('complementary', { name: 'Document' })]) {
      expect(await chrome.isVisible()).toBe(false);
    }
    // The body, its preview and the bar stay, side by side now that there is room for both.
    const editor = await box('.markdown-editor');
    const preview = await box('.preview');
    expect(editor.width).toBeGreaterThan(500);
    expect(preview.x).toBeGreaterThan(editor.x + editor.width - 1);
    expect(await page.getByRole('button', { name: 'Save', exact: true }).isVisible()).toBe(true);
    expect(await seriousViolations(page)).toEqual([]);

    // The shortcut, also from inside the body editor, turns it off again.
    await page.locator('.cm-content').click();
    await page.keyboard.press('Control+Shift+F');
    expect(await button.getAttribute('aria-pressed')).toBe('false');
    await topbar.waitFor();
    expect(await fields.isVisible()).toBe(true);
  });

  it('scrolls the preview to the block of the line the cursor is on', async () => {
    await page.setViewportSize({ width: 1280, height: 900 });
    await open();
    const preview = page.locator('.preview');
    // At the first line, the preview shows its top.
    expect(await preview.evaluate((element) => (element as unknown as PageElement).scrollTop)).toBeLessThan(50);
    // Section 90's heading is on line 1 + 89 * 4 = 357: go there with the keyboard.
    await page.locator('.cm-content').click();
    await page.keyboard.press('Control+Home');
    for (let i = 0; i < 356; i += 1) await page.keyboard.press('ArrowDown');
    const heading = preview.getByRole('heading', { name: 'Section 90', exact: true });
    await page.waitForFunction(
      () => ((globalThis as unknown as Page_).document.querySelector('.preview') as PageElement).scrollTop > 1000,
    );
    const top = await heading.boundingBox();
    const frame = await preview.boundingBox();
    expect(top && frame).toBeTruthy();
    // The heading is at the top of the preview's box, where the eye looks for it.
    expect((top?.y ?? 0) - (frame?.y ?? 0)).toBeGreaterThanOrEqual(-2);
    expect((top?.y ?? 0) - (frame?.y ?? 0)).toBeLessThan(60);
    // Back to the top: the preview follows.
    await page.keyboard.press('Control+Home');
    await page.waitForFunction(
      () => ((globalThis as unknown as Page_).document.querySelector('.preview') as PageElement).scrollTop < 20,
    );
  });
});
