import { computeSchemaHash, type ResolvedSchema } from '@cms/core';
import type { Browser, BrowserContext, Frame, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { field } from '../../server/test/content/fixtures.js';
import { type PreviewSite, startPreviewSite } from './support/preview-site.js';
import {
  createFirstAdmin,
  type InPage,
  launchBrowser,
  SCREENSHOTS,
  type StudioServer,
  signInAs,
  startStudioServer,
} from './support/studio-harness.js';

/** What the cursor check reads in the page (the tests compile without the DOM library). */
type SelectionElement = { closest(selector: string): SelectionElement | null };
type SelectionPage = {
  getSelection(): {
    anchorNode: { parentElement: SelectionElement | null; closest?(selector: string): SelectionElement | null } | null;
  } | null;
  document: {
    activeElement: { classList: { contains(name: string): boolean } } | null;
    querySelectorAll(selector: string): Iterable<SelectionElement>;
  };
};

/**
 * The editor's "Live preview" in Chromium (docs/live-preview.md): a site on another port, subscribed
 * with the built `@cms/sdk/preview`, shows the draft as it is typed; a click on a `data-cms-source`
 * element puts the editor's cursor on that line; drafts from another origin are ignored; the token is
 * renewed before it expires (a 6-second lifetime here). Keystroke-to-frame times are reported, never asserted.
 */
const TOKEN_TTL_SECONDS = 6;
const SCHEMA: ResolvedSchema = {
  types: [
    {
      name: 'note',
      directory: 'notes',
      localized: false,
      fields: {
        title: field('string', { required: true }),
        // A nested reference: the preview resolves it as `resolve=seo.related` would.
        seo: field('object', {
          fields: { related: field('reference', { nullable: true, reference: { targetType: 'note' } }) },
        }),
      },
    },
  ],
};
const HASH = computeSchemaHash(SCHEMA);
const BODY = ['# Heading', '', 'First paragraph.', '', '## Second heading', '', 'Last paragraph.'].join('\n');

describe('live preview in Chromium', () => {
  let server: StudioServer;
  let site: PreviewSite;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let doc: { documentId: string; draftRevision: number };
  let other: { documentId: string };

  const siteFrame = async (): Promise<Frame> => {
    const handle = await page.locator('iframe[title^="Live preview"]').elementHandle();
    const frame = await handle?.contentFrame();
    if (!frame) throw new Error('no preview frame');
    return frame;
  };

  beforeAll(async () => {
    [server, browser] = await Promise.all([
      startStudioServer({ env: { CMS_PREVIEW_TOKEN_TTL_SECONDS: String(TOKEN_TTL_SECONDS) } }),
      launchBrowser(),
    ]);
    site = await startPreviewSite(new URL(server.url).origin);
    await createFirstAdmin(server, SCHEMA);
    const settings = await server.request('PUT', '/api/v1/settings', {
      environment: null,
      body: { mediaImageMaxBytes: null, previewUrl: `${site.url}/preview/{path}?locale={locale}&token={token}` },
    });
    expect(settings.status, settings.text).toBe(200);
    // Never published and in no release: resolved in the draft's view, missing in a release's.
    const related = await server.request('POST', '/api/v1/content', {
      headers: { 'x-cms-schema-hash': HASH },
      body: { type: 'note', path: 'other', format: 'md', frontmatter: { title: 'Other note' }, body: '' },
    });
    expect(related.status, related.text).toBe(201);
    other = related.body.data;
    const created = await server.request('POST', '/api/v1/content', {
      headers: { 'x-cms-schema-hash': HASH },
      body: {
        type: 'note',
        path: 'live',
        format: 'md',
        frontmatter: { title: 'A note', seo: { related: other.documentId } },
        body: BODY,
      },
    });
    expect(created.status, created.text).toBe(201);
    doc = created.body.data;

    context = await browser.newContext({ viewport: { width: 1400, height: 900 } });
    page = await context.newPage();
    await signInAs(page, server);
  });

  afterAll(async () => {
    await browser?.close();
    await site?.close();
    await server?.close();
  });

  it('shows a title change in the frame before the editor saves, and reports keystroke-to-frame times', async () => {
    await page.goto(`${server.url}/studio/content/note/${doc.documentId}`);
    await page.getByRole('button', { name: 'Live preview' }).click();
    const frame = await siteFrame();
    expect(new URL(frame.url()).searchParams.get('locale')).toBeTruthy();
    await frame.waitForFunction(
      () => (globalThis as unknown as InPage).document.getElementById('title')?.textContent === 'A note',
    );

    const title = page.locator('[data-field="frontmatter.title"]');
    await title.click();
    await page.keyboard.press('End');
    // The Studio's keystroke times, on the same clock as the frame's receipt times: the typed letters
    // only, so keystroke i is the one that makes the title i + 1 letters longer (counting the End key
    // too paired each letter with the next letter's message, a typing interval late).
    await page.evaluate(`(() => {
      window.keystrokes = [];
      document.addEventListener('keydown', () => window.keystrokes.push(performance.timeOrigin + performance.now()), true);
    })()`);
    const typed = ' typed live, letter by letter';
    await page.keyboard.type(typed, { delay: 25 });
    await frame.waitForFunction(
      `document.getElementById("title")?.textContent === ${JSON.stringify(`A note${typed}`)}`,
    );
    expect(await page.getByText('Unsaved changes').count()).toBe(1);
    const stored = (await server.request('GET', `/api/v1/content/${doc.documentId}?draft=true`)).body.data;
    expect(stored.draftRevision).toBe(doc.draftRevision);
    expect(stored.frontmatter.title).toBe('A note');

    // The document arrives as the read API answers it (same keys), with the edited title.
    const received = (await frame.evaluate('window.received')) as Array<{ title: string; at: number; doc: any }>;
    expect(Object.keys(received.at(-1)?.doc ?? {}).sort()).toEqual(
      Object.keys(stored)
        .filter((key) => key !== 'source')
        .sort(),
    );
    const keystrokes = (await page.evaluate('window.keystrokes')) as number[];
    const latencies = keystrokes.map((at, i) => {
      const arrived = received.find((message) => message.title.length >= 'A note'.length + i + 1);
      return arrived ? arrived.at - at : Number.NaN;
    });
    const sorted = latencies.filter(Number.isFinite).sort((a, b) => a - b);
    const p95 = sorted[Math.min(sorted.length - 1, Math.ceil(sorted.length * 0.95) - 1)] ?? Number.NaN;
    console.info(
      `live preview keystroke-to-frame: p50 ${sorted[Math.floor(sorted.length / 2)]?.toFixed(1)} ms, p95 ${p95.toFixed(1)} ms over ${sorted.length} keystrokes`,
    );
    expect(keystrokes).toHaveLength(typed.length);
    expect(sorted.length).toBe(typed.length);
    // A message cannot arrive before its keystroke (paired with an earlier key's message, it would).
    expect(sorted[0]).toBeGreaterThan(0);
    // The nested reference arrives resolved, as `resolve=seo.related` answers it.
    expect(received.at(-1)?.doc.frontmatter.seo.related).toMatchObject({
      documentId: other.documentId,
      path: 'other',
      frontmatter: { title: 'Other note' },
    });
    await page.screenshot({ path: `${SCREENSHOTS}live-preview.png` });
  });

  it('moves the body editor cursor to the line of a clicked data-cms-source element', async () => {
    const frame = await siteFrame();
    await frame.locator('[data-cms-source="5"]').click();
    // A function, not a string: a string predicate that has to poll is run through eval, which the
    // Studio's Content-Security-Policy refuses, so the test failed whenever the cursor moved a moment late.
    const line = await page.waitForFunction(() => {
      const inPage = globalThis as unknown as SelectionPage;
      const anchor = inPage.getSelection()?.anchorNode;
      const lineElement = anchor?.parentElement?.closest('.cm-line') ?? anchor?.closest?.('.cm-line') ?? null;
      if (!lineElement || !inPage.document.activeElement?.classList.contains('cm-content')) return null;
      return [...inPage.document.querySelectorAll('.cm-content .cm-line')].indexOf(lineElement) + 1;
    });
    expect(await line.jsonValue()).toBe(5);

    // data-cms-field focuses the form field.
    await frame.locator('[data-cms-field="title"]').click();
    await page.waitForFunction(
      () =>
        (globalThis as unknown as InPage).document.activeElement?.getAttribute('data-field') === 'frontmatter.title',
    );
  });

  it('renews the preview token before it expires and hands the new one to the site', async () => {
    const frame = await siteFrame();
    const first = new URL(frame.url()).searchParams.get('token');
    // At least one renewal: on a loaded machine the count may be past 1 by the time it is read.
    await page.getByText(/renewed [1-9]\d*×/).waitFor({ timeout: TOKEN_TTL_SECONDS * 1000 + 5000 });
    await frame.waitForFunction(() => (globalThis as unknown as InPage).tokens.length >= 1);
    const tokens = (await frame.evaluate('window.tokens')) as string[];
    const renewed = tokens[tokens.length - 1] as string;
    expect(renewed).not.toBe(first);
    // The renewed token reads the draft (the first one's time is nearly up).
    const read = await fetch(`${server.url}/api/v1/content/${doc.documentId}?draft=true`, {
      headers: { authorization: `Preview ${renewed}`, 'x-cms-project': 'default', 'x-cms-environment': 'production' },
    });
    expect(read.status).toBe(200);
  });

  it('ignores drafts posted from another origin', async () => {
    const foreign = await context.newPage();
    await foreign.goto(`${site.foreignUrl}/foreign.html`);
    await foreign.waitForFunction(() => (globalThis as unknown as InPage).posted === true);
    const framed = foreign.frames().find((f) => f.url().startsWith(site.url));
    if (!framed) throw new Error('the site did not load in the foreign page');
    // Give the forged message time to be handled, were it accepted.
    await foreign.waitForTimeout(300);
    expect(await framed.evaluate('window.received.length')).toBe(0);
    expect(await framed.evaluate('document.getElementById("title")?.textContent')).toBe('');
    await foreign.close();

    // The Studio too ignores a click message from a frame of another origin.
    await page.evaluate(`(() => {
      const frame = document.createElement('iframe');
      frame.id = 'foreign';
      frame.src = ${JSON.stringify(`${site.foreignUrl}/preview/evil`)};
      document.body.append(frame);
    })()`);
    const evil = page.frames().find((f) => f.url().startsWith(site.foreignUrl)) ?? null;
    await page.waitForFunction(
      () => (globalThis as unknown as InPage).document.getElementById('foreign')?.contentWindow !== null,
    );
    const evilFrame = evil ?? (await (await page.locator('#foreign').elementHandle())?.contentFrame());
    await evilFrame?.waitForLoadState();
    await page.locator('[data-field="frontmatter.title"]').focus();
    await evilFrame?.evaluate(`window.parent.postMessage({ type: 'cms:preview', kind: 'focus', line: 3 }, '*')`);
    await page.waitForTimeout(300);
    expect(await page.evaluate('document.activeElement?.getAttribute("data-field")')).toBe('frontmatter.title');
  });

  it('switches the preview to a release that publishes the document: its token and its view', async () => {
    const created = await server.request('POST', '/api/v1/releases', { body: { title: 'Launch' } });
    expect(created.status, created.text).toBe(201);
    const releaseId = created.body.data.id as string;
    const added = await server.request('POST', `/api/v1/releases/${releaseId}/items`, {
      body: { items: [{ documentId: doc.documentId, action: 'publish' }] },
    });
    expect(added.status, added.text).toBe(200);

    await page.goto(`${server.url}/studio/content/note/${doc.documentId}`);
    await page.getByRole('button', { name: 'Live preview' }).click();
    const draftFrame = await siteFrame();
    await draftFrame.waitForFunction(() => (globalThis as unknown as InPage).received.length > 0);
    await page.getByLabel('Preview as').selectOption({ label: 'Release: Launch (open)' });

    const claims = async () => {
      const src = await page.locator('iframe[title^="Live preview"]').getAttribute('src');
      const token = src ? new URL(src).searchParams.get('token') : null;
      const payload = token?.split('.')[1];
      return payload ? JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) : null;
    };
    await expect.poll(async () => (await claims())?.release, { timeout: 15_000 }).toBe(releaseId);
    const frame = await siteFrame();
    // The release's view: the related note is neither published nor in the release, so it stays an id
    // with the read's resolve error, where the draft's view had it resolved.
    await frame.waitForFunction(() => (globalThis as unknown as InPage).received.length > 0);
    const shown = ((await frame.evaluate('window.received')) as Array<{ doc: any }>).at(-1)?.doc;
    expect(shown.frontmatter.seo.related).toBe(other.documentId);
    expect(Object.keys(shown.resolveErrors)).toEqual(['frontmatter.seo.related']);
    // The release's token reads the document as the release publishes it.
    const token = new URL(
      (await page.locator('iframe[title^="Live preview"]').getAttribute('src')) as string,
    ).searchParams.get('token');
    const read = await fetch(`${server.url}/api/v1/content/${doc.documentId}`, {
      headers: { authorization: `Preview ${token}`, 'x-cms-project': 'default', 'x-cms-environment': 'production' },
    });
    expect(read.status).toBe(200);

    // Edits still reach the frame in the release's view.
    await page.locator('[data-field="frontmatter.title"]').fill('Launch title');
    await frame.waitForFunction(
      () => (globalThis as unknown as InPage).document.getElementById('title')?.textContent === 'Launch title',
    );

    // Back to the draft: a token without a release, the reference resolved again.
    await page.getByLabel('Preview as').selectOption({ label: 'Current draft' });
    await expect.poll(async () => (await claims())?.release ?? 'none', { timeout: 15_000 }).toBe('none');
  });

  it('edits the site preview address in the project settings, showing the server refusal', async () => {
    await page.goto(`${server.url}/studio/settings/project`);
    const address = page.getByLabel('Site preview address');
    expect(await address.inputValue()).toBe(`${site.url}/preview/{path}?locale={locale}&token={token}`);
    await address.fill('ftp://site.example/{slug}');
    await page.getByRole('button', { name: 'Save settings' }).click();
    const alert = page.getByRole('alert').filter({ hasText: 'Not saved.' });
    await alert.getByText('Error code INVALID_INPUT', { exact: false }).waitFor({ state: 'attached' });
    await address.fill(`${site.url}/p/{path}?token={token}`);
    await page.getByRole('button', { name: 'Save settings' }).click();
    await page.getByText(/^Saved/).waitFor();
    const stored = await server.request('GET', '/api/v1/settings', { environment: null });
    expect(stored.body.data.previewUrl).toBe(`${site.url}/p/{path}?token={token}`);
    expect(stored.body.data.previewUrls).toBeNull();

    // One row per type for previewUrls, checked the same way, the server's message under the row.
    const perType = page.getByLabel('Preview address for note');
    expect(await perType.inputValue()).toBe('');
    await perType.fill('https://user:secret@site.example/{slug}');
    await page.getByRole('button', { name: 'Save settings' }).click();
    await alert.getByText('Error code INVALID_INPUT', { exact: false }).waitFor({ state: 'attached' });
    expect(await perType.getAttribute('aria-invalid')).toBe('true');
    await perType.fill(`${site.url}/notes/{path}?token={token}`);
    await page.getByRole('button', { name: 'Save settings' }).click();
    await page.getByText(/^Saved/).waitFor();
    expect(await perType.getAttribute('aria-invalid')).toBeNull();
    const withTypes = await server.request('GET', '/api/v1/settings', { environment: null });
    expect(withTypes.body.data.previewUrl).toBe(`${site.url}/p/{path}?token={token}`);
    expect(withTypes.body.data.previewUrls).toEqual({ note: `${site.url}/notes/{path}?token={token}` });
  });

  it("reloads a server-rendered site on each autosaved change, past the first token's lifetime", async () => {
    const set = await server.request('PUT', '/api/v1/settings', {
      environment: null,
      body: { mediaImageMaxBytes: null, previewUrl: `${site.url}/ssr/{path}?token={token}`, previewUrls: null },
    });
    expect(set.status, set.text).toBe(200);
    const created = await server.request('POST', '/api/v1/content', {
      headers: { 'x-cms-schema-hash': HASH },
      body: { type: 'note', path: 'rendered', format: 'md', frontmatter: { title: 'Rendered' }, body: '' },
    });
    expect(created.status, created.text).toBe(201);
    const rendered = created.body.data as { documentId: string };

    await page.goto(`${server.url}/studio/content/note/${rendered.documentId}`);
    await page.getByRole('button', { name: 'Live preview' }).click();
    const frame = await siteFrame();
    await frame.locator('#title', { hasText: 'Rendered' }).waitFor();
    await page.getByLabel('Autosave').check();

    // Wait out the frame's first token: the stream it opened with has ended, so a reload now needs the
    // renewed token the Studio posted (reloadOnPreviewChange's studioOrigin follows it).
    const first = new URL(frame.url()).searchParams.get('token') as string;
    const { exp } = JSON.parse(Buffer.from(first.split('.')[1] as string, 'base64url').toString('utf8'));
    await page.waitForTimeout(Math.max(0, exp * 1000 - Date.now() + 500));

    await page.locator('[data-field="frontmatter.title"]').fill('Rendered after an autosave');
    // No Save pressed: the pause saves, the site hears the change and reloads with its server's render.
    await expect
      .poll(
        async () =>
          frame
            .locator('#title')
            .textContent({ timeout: 1000 })
            .catch(() => null),
        { timeout: 15_000 },
      )
      .toBe('Rendered after an autosave');
    expect(site.serverRenders.at(-1)).toBe('Rendered after an autosave');
    await page.getByText(/^Saved at/).waitFor();
    const stored = (await server.request('GET', `/api/v1/content/${rendered.documentId}?draft=true`)).body.data;
    expect(stored.frontmatter.title).toBe('Rendered after an autosave');
    await page.screenshot({ path: `${SCREENSHOTS}live-preview-server-rendered.png` });

    // Typing on while an autosave is on its way: the saved copy does not replace what was typed since,
    // which the next pause saves.
    let saveSeen: () => void = () => undefined;
    const seen = new Promise<void>((resolve) => {
      saveSeen = resolve;
    });
    const documentUrl = (url: URL) => url.pathname === `/api/v1/content/${rendered.documentId}`;
    await page.route(documentUrl, async (route) => {
      if (route.request().method() === 'PUT') {
        saveSeen();
        await new Promise((resolve) => setTimeout(resolve, 1500));
      }
      await route.continue();
    });
    const title = page.locator('[data-field="frontmatter.title"]');
    const firstSave = page.waitForResponse(
      (response) =>
        response.url().endsWith(`/api/v1/content/${rendered.documentId}`) && response.request().method() === 'PUT',
    );
    await title.click();
    await page.keyboard.press('End');
    await page.keyboard.type(', first');
    await seen;
    await page.keyboard.type(' and more');
    await firstSave;
    await page.unroute(documentUrl);
    const typed = 'Rendered after an autosave, first and more';
    await expect
      .poll(
        async () =>
          frame
            .locator('#title')
            .textContent({ timeout: 1000 })
            .catch(() => null),
        { timeout: 15_000 },
      )
      .toBe(typed);
    expect(await title.inputValue()).toBe(typed);
  });
});
