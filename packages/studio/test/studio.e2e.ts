import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BLOG_SCHEMA, hashHeader, syncBody } from '../../server/test/content/fixtures.js';
import {
  ADMIN_EMAIL,
  ADMIN_PASSWORD,
  launchBrowser,
  type StudioServer,
  screenshots,
  seriousViolations,
  startStudioServer,
} from './support/studio-harness.js';

/** A 1x1 PNG. */
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR4nGMAAQAABQABDQottAAAAABJRU5ErkJggg==',
  'base64',
);

/**
 * The Studio end to end, in the order a team meets it: first admin, sign in, write, collide with a
 * second tab, publish, restore, translate, and the command-line sign-in. One server, one browser.
 */
describe('the Studio in Chromium', () => {
  let server: StudioServer;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let postId = '';

  const studio = (path: string) => `${server.url}/studio${path}`;
  const api = (method: string, path: string, body?: unknown) =>
    server.request(
      method,
      `/api/v1${path}`,
      body === undefined ? {} : { body, headers: method === 'GET' ? {} : hashHeader() },
    );
  const expectAccessible = async (p: Page) => expect(await seriousViolations(p)).toEqual([]);

  beforeAll(async () => {
    [server, browser] = await Promise.all([startStudioServer(), launchBrowser()]);
    context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    page = await context.newPage();
    const sync = await server.request('PUT', '/api/v1/schema/sync', { body: syncBody(BLOG_SCHEMA) });
    expect(sync.status, sync.text).toBe(200);
  });

  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  it('sets up the first administrator from the logged address', async () => {
    await page.goto(studio(`/setup?token=${server.setupToken}`));
    await page.getByRole('heading', { name: 'Create the first administrator' }).waitFor();
    await expectAccessible(page);
    await screenshots(page, 'setup');
    await page.getByLabel('Email').fill(ADMIN_EMAIL);
    await page.getByLabel('Password', { exact: true }).fill('too short');
    await page.getByLabel('Repeat password').fill('too short');
    await page.getByRole('button', { name: 'Create administrator' }).click();
    await page.getByText('Use at least 12 characters.').waitFor();
    await page.getByLabel('Password', { exact: true }).fill(ADMIN_PASSWORD);
    await page.getByLabel('Repeat password').fill(ADMIN_PASSWORD);
    await page.getByRole('button', { name: 'Create administrator' }).click();
    await page.getByRole('heading', { name: 'Dashboard' }).waitFor();
    const users = await server.request('GET', '/api/v1/users', { project: null, environment: null });
    expect(users.body.data.map((u: { email: string }) => u.email)).toEqual([ADMIN_EMAIL]);
  });

  it('signs out, refuses a wrong password with its code, and signs in', async () => {
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByRole('heading', { name: 'Sign in' }).waitFor();
    await expectAccessible(page);
    await screenshots(page, 'login');
    // Signed out for real: the dashboard sends us back here.
    await page.goto(studio('/'));
    await page.getByRole('heading', { name: 'Sign in' }).waitFor();
    await page.getByLabel('Email').fill(ADMIN_EMAIL);
    await page.getByLabel('Password').fill('not the password at all');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('alert').getByText('UNAUTHORIZED', { exact: false }).waitFor({ state: 'attached' });
    await page.getByLabel('Password').fill(ADMIN_PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { name: 'Dashboard' }).waitFor();
  });

  it('shows a single sign-on error by its reason, never as a wrong password', async () => {
    const other = await browser.newPage();
    // What the server's redirect carries (docs/access-control.md "Single sign-on").
    await other.goto(studio('/login?error=UNAUTHORIZED&reason=browser_mismatch'));
    await other.getByRole('alert').getByText('This sign-in was started in another browser or tab').waitFor();
    await other.goto(studio('/login?error=UNAUTHORIZED&reason=state_invalid'));
    await other.getByRole('alert').getByText('The single sign-on attempt expired').waitFor();
    // A reason this Studio does not know: the code's meaning for single sign-on.
    await other.goto(studio('/login?error=UNAUTHORIZED&reason=something_new'));
    await other.getByRole('alert').getByText('Single sign-on did not complete').waitFor();
    expect(await other.getByRole('alert').textContent()).not.toContain('password is not right');
    await other.close();
  });

  it('shows the dashboard with counts per type and remembers the environment', async () => {
    await server.request('POST', '/api/v1/environments', {
      environment: null,
      body: { name: 'staging', extends: 'production' },
    });
    await page.reload();
    await page.getByRole('heading', { name: 'Content' }).waitFor();
    await page.locator('.card').first().waitFor();
    await expectAccessible(page);
    await screenshots(page, 'dashboard');
    await page.getByLabel('Environment').selectOption('staging');
    await page.getByText('environment staging').waitFor();
    await page.reload();
    expect(await page.getByLabel('Environment').inputValue()).toBe('staging');
    await page.getByLabel('Environment').selectOption('production');
    await page.getByText('environment production').waitFor();
  });

  it('creates a post from the list, with field errors before saving', async () => {
    await page.getByRole('navigation', { name: 'Content types' }).getByRole('link', { name: 'Post' }).click();
    await page.getByText('No documents here yet.').waitFor();
    await page.getByRole('link', { name: 'New post' }).click();
    await page.getByLabel('Path').fill('hello-world');
    await page.getByLabel('Slug').fill('Not A Slug');
    await page.getByRole('button', { name: 'Create' }).click();
    const summary = page.locator('.error-summary');
    await summary.getByText('Title:').waitFor();
    await summary.getByText('Slug:').waitFor();
    await expectAccessible(page);
    await summary.getByRole('link', { name: /^Title:/ }).click();
    expect(await page.evaluate("document.activeElement?.getAttribute('data-field')")).toBe('frontmatter.title');
    await page.getByLabel('Title').fill('Hello world');
    await page.getByLabel('Slug').fill('hello-world');
    await page.locator('.cm-content').click();
    await page.keyboard.type('# Hello\n\nFirst words.');
    await page.getByRole('button', { name: 'Create' }).click();
    await page.waitForURL(/\/studio\/content\/post\/[0-9a-f-]{36}$/);
    postId = page.url().split('/').pop() as string;
    const stored = await api('GET', `/content/${postId}?draft=true`);
    expect(stored.body.data).toMatchObject({ path: 'hello-world', body: '# Hello\n\nFirst words.', draftRevision: 1 });
    expect(stored.body.data.frontmatter).toMatchObject({ title: 'Hello world', slug: 'hello-world' });
    await page.locator('.preview h1').getByText('Hello').waitFor();
    await expectAccessible(page);
    await screenshots(page, 'editor');
  });

  it('lists documents with totals, sort and search', async () => {
    for (const n of [1, 2, 3]) {
      await api('POST', '/content', {
        type: 'post',
        path: `extra-${n}`,
        frontmatter: { title: `Extra ${n}`, slug: `extra-${n}` },
      });
    }
    await page.goto(studio('/content/post?sort=path&order=asc'));
    await page.getByText('1–4 of 4').waitFor();
    const firstCell = page.locator('table.list tbody tr').first().locator('td').nth(1);
    expect(await firstCell.textContent()).toBe('extra-1');
    await expectAccessible(page);
    await screenshots(page, 'list');
    await page.getByLabel('Status').selectOption('unpublished');
    await page.getByText('1–4 of 4').waitFor();
  });

  it('saves an edit with Ctrl+S, and sends nothing when nothing changed', async () => {
    await page.goto(studio(`/content/post/${postId}`));
    await page.getByLabel('Title').waitFor();
    await page.getByText('No changes').waitFor();
    await page.keyboard.press('Control+s');
    expect((await api('GET', `/content/${postId}?draft=true`)).body.data.draftRevision).toBe(1);
    await page.getByLabel('Title').fill('Hello again');
    await page.getByText('Unsaved changes').waitFor();
    await page.keyboard.press('Control+s');
    await page.getByText(/Saved at/).waitFor();
    const stored = (await api('GET', `/content/${postId}?draft=true`)).body.data;
    expect(stored).toMatchObject({ draftRevision: 2, body: '# Hello\n\nFirst words.' });
    expect(stored.frontmatter.title).toBe('Hello again');
  });

  it('asks before leaving unsaved work', async () => {
    await page.getByLabel('Title').fill('Unsaved title');
    let asked = '';
    page.once('dialog', (dialog) => {
      asked = dialog.message();
      void dialog.dismiss();
    });
    await page.getByRole('navigation', { name: 'Breadcrumbs' }).getByRole('link', { name: 'Post' }).click();
    await expect.poll(() => asked).toContain('unsaved changes');
    expect(page.url()).toContain(postId);
    await page.getByLabel('Title').fill('Hello again');
    await page.getByText(/^Saved at/).waitFor();
  });

  it('keeps my edits on a conflict from a second tab, and keeps mine when asked', async () => {
    const second = await context.newPage();
    await second.goto(studio(`/content/post/${postId}`));
    await second.getByLabel('Title').fill('Their title');
    await second.keyboard.press('Control+s');
    await second.getByText(/Saved at/).waitFor();

    await page.getByLabel('Title').fill('My title');
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    const conflict = page.getByRole('region', { name: 'Someone else saved this document meanwhile' });
    await conflict.waitFor();
    await conflict.getByText('Their title').waitFor();
    expect(await page.getByLabel('Title').inputValue()).toBe('My title');
    await expectAccessible(page);
    await screenshots(page, 'conflict');
    await conflict.getByRole('button', { name: 'Keep mine' }).click();
    await page.getByText(/Saved at/).waitFor();
    const stored = (await api('GET', `/content/${postId}?draft=true`)).body.data;
    expect(stored.frontmatter.title).toBe('My title');
    expect(stored.draftRevision).toBe(4);

    // Take theirs: the server's copy replaces the form.
    await second.reload();
    await second.getByLabel('Title').fill('Their second title');
    await second.getByText('Unsaved changes').waitFor();
    await second.keyboard.press('Control+s');
    await second.getByText(/Saved at/).waitFor();
    await page.getByLabel('Title').fill('Mine again');
    await page.keyboard.press('Control+s');
    await conflict.getByRole('button', { name: 'Take theirs' }).click();
    expect(await page.getByLabel('Title').inputValue()).toBe('Their second title');
    await page.getByText(/^Saved at|^No changes/).waitFor();
    await second.close();
  });

  it('publishes with a change summary, then restores an earlier version', async () => {
    await page.getByRole('button', { name: 'Publish…' }).click();
    await page.getByLabel('Change summary (optional)').fill('First release');
    await page.getByRole('button', { name: 'Publish now' }).click();
    await page.getByText('Published as version 1.').waitFor();
    let stored = (await api('GET', `/content/${postId}?draft=true`)).body.data;
    expect(stored).toMatchObject({ publishedVersion: 1, hasUnpublishedChanges: false });

    await page.getByLabel('Title').fill('Second release title');
    await page.keyboard.press('Control+s');
    await page.getByText(/Saved at/).waitFor();
    await page.keyboard.press('Control+Shift+Enter');
    await page.getByRole('button', { name: 'Publish now' }).click();
    await page.getByText('Published as version 2.').waitFor();

    await page.getByRole('link', { name: 'History' }).click();
    await page.getByRole('heading', { name: /^History/ }).waitFor();
    await page.getByText('First release').waitFor();
    await page.getByLabel('From').selectOption('1');
    await page.getByLabel('To').selectOption('2');
    await page.locator('table.compare').getByText('Second release title').waitFor();
    await expectAccessible(page);
    await screenshots(page, 'history');
    page.once('dialog', (dialog) => void dialog.accept());
    await page.getByRole('button', { name: 'Restore version 1' }).click();
    await page.getByText('The draft now holds version 1').waitFor();
    stored = (await api('GET', `/content/${postId}?draft=true`)).body.data;
    expect(stored.frontmatter.title).toBe('Their second title');
    expect(stored.hasUnpublishedChanges).toBe(true);
  });

  it('translates a page into another locale in the same group', async () => {
    const created = await api('POST', '/content', {
      type: 'page',
      path: 'about',
      locale: 'en',
      frontmatter: { title: 'About us' },
      body: 'Hi.',
    });
    expect(created.status, created.text).toBe(201);
    const source = created.body.data;
    await page.goto(studio(`/content/page/${source.documentId}`));
    await page.getByLabel('Translate into').fill('fr');
    await page.getByRole('button', { name: 'Create translation' }).click();
    await page.waitForURL(
      (url) => !url.pathname.endsWith(source.documentId) && /content\/page\/[0-9a-f-]{36}$/.test(url.pathname),
    );
    const copyId = page.url().split('/').pop() as string;
    const copy = (await api('GET', `/content/${copyId}?draft=true`)).body.data;
    expect(copy).toMatchObject({
      locale: 'fr',
      path: 'about',
      translationGroupId: source.translationGroupId,
      body: 'Hi.',
    });
    await page.getByRole('link', { name: 'en', exact: true }).waitFor();
  });

  it('duplicates, deletes and restores a document', async () => {
    await page.goto(studio(`/content/post/${postId}`));
    await page.getByRole('button', { name: 'Duplicate' }).click();
    await page.waitForURL((url) => !url.pathname.endsWith(postId));
    const copyId = page.url().split('/').pop() as string;
    await page.getByRole('button', { name: 'Delete' }).click();
    const asked = page.getByRole('dialog', { name: /^Delete / });
    await asked.getByText('No other document points here.').waitFor();
    await asked.getByRole('button', { name: 'Delete' }).click();
    await page.waitForURL(/\/studio\/content\/post$/);
    expect((await api('GET', `/content/${copyId}?draft=true`)).status).toBe(404);
    await page.getByLabel('Status').selectOption('deleted');
    await page
      .getByRole('button', { name: /^Restore / })
      .first()
      .click();
    await expect.poll(async () => (await api('GET', `/content/${copyId}?draft=true`)).status).toBe(200);
  });

  it('accepts an invite and signs the new person in', async () => {
    const invite = await server.request('POST', '/api/v1/invites', {
      project: null,
      environment: null,
      body: { email: 'editor@example.test', role: 'editor', project: 'default' },
    });
    expect(invite.status, invite.text).toBe(200);
    const link = new URL(invite.body.data.inviteUrl);
    const fresh = await browser.newContext();
    const invited = await fresh.newPage();
    await invited.goto(`${server.url}${link.pathname}${link.search}`);
    await invited.getByRole('heading', { name: 'Accept your invitation' }).waitFor();
    await expectAccessible(invited);
    await invited.getByLabel('Password', { exact: true }).fill('an editor password');
    await invited.getByLabel('Repeat password').fill('an editor password');
    await invited.getByRole('button', { name: 'Create account' }).click();
    await invited.getByRole('heading', { name: 'Dashboard' }).waitFor();
    await invited.getByText('editor@example.test').waitFor();
    await fresh.close();
  });

  it('authorizes a command-line challenge and hands the code back', async (test) => {
    const start = await server.request('POST', '/api/v1/auth/cli/start', {
      project: null,
      environment: null,
      body: { project: 'default', environment: 'production' },
    });
    if (start.status === 404) test.skip(); // The device flow is not on this server yet.
    const { challengeId, userCode } = start.body.data;
    await page.goto(studio(`/cli/authorize?challenge=${challengeId}`));
    await page.getByText('asks to act as you').waitFor();
    // The code the command line printed, to compare before approving.
    expect(await page.getByLabel('Code from the command line').textContent()).toBe(userCode);
    await expectAccessible(page);
    await screenshots(page, 'cli-authorize');
    await page.getByRole('button', { name: 'Authorize' }).click();
    const code = (await page.getByLabel('One-time code').textContent()) as string;
    const exchange = await server.request('POST', '/api/v1/auth/cli/exchange', {
      project: null,
      environment: null,
      key: null,
      body: { challengeId, code },
    });
    expect(exchange.status, exchange.text).toBe(200);
    expect(exchange.body.data.apiKey).toMatch(/^cms_key_cli_/);
  });
  describe('a command-line challenge with a loopback callback', () => {
    let listener: Server;
    let callbackUrl = '';
    /** The addresses the browser was sent to, as the waiting `cms login` would receive them. */
    const received: URL[] = [];

    beforeAll(async () => {
      listener = createServer((request, response) => {
        const url = new URL(request.url ?? '/', 'http://127.0.0.1');
        // The browser also asks for /favicon.ico.
        if (url.pathname.startsWith('/callback/')) received.push(url);
        response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
        response.end('<!doctype html><title>cms login</title><p>back in the terminal</p>');
      });
      await new Promise<void>((done) => listener.listen(0, '127.0.0.1', done));
      callbackUrl = `http://127.0.0.1:${(listener.address() as AddressInfo).port}/callback/state`;
    });
    afterAll(() => new Promise<void>((done) => listener.close(() => done())));

    const startWithCallback = async () => {
      const start = await server.request('POST', '/api/v1/auth/cli/start', {
        project: null,
        environment: null,
        key: null,
        body: { project: 'default', environment: 'production', callbackUrl },
      });
      expect(start.status, start.text).toBe(200);
      return start.body.data as { challengeId: string; userCode: string };
    };
    const poll = async (challengeId: string) =>
      (
        await server.request('POST', '/api/v1/auth/cli/poll', {
          project: null,
          environment: null,
          key: null,
          body: { challengeId },
        })
      ).body.data.status;
    const nextCallback = async (count: number) => {
      for (let tries = 0; received.length < count && tries < 100; tries += 1) await page.waitForTimeout(50);
      expect(received.length).toBe(count);
      return received[count - 1] as URL;
    };

    it('shows the code the command line printed before approving, then sends the one-time code back', async () => {
      const { challengeId, userCode } = await startWithCallback();
      await page.goto(studio(`/cli/authorize?challenge=${challengeId}`));
      await page.getByText('asks to act as you').waitFor();
      expect(await page.getByLabel('Code from the command line').textContent()).toBe(userCode);
      await page.getByText('Authorize only if it is the same code.').waitFor();
      await expectAccessible(page);
      await screenshots(page, 'cli-authorize-callback');
      await page.getByRole('button', { name: 'Authorize' }).click();
      const back = await nextCallback(1);
      expect(back.pathname).toBe('/callback/state');
      expect(back.searchParams.get('challengeId')).toBe(challengeId);
      expect(back.searchParams.get('code')).toMatch(/^[A-Z2-9]{4}-[A-Z2-9]{4}$/);
      expect(await poll(challengeId)).toBe('authorized');
    });

    it('Deny tells the server and sends access_denied back to the command line', async () => {
      const { challengeId } = await startWithCallback();
      await page.goto(studio(`/cli/authorize?challenge=${challengeId}`));
      await page.getByRole('button', { name: 'Deny' }).click();
      const back = await nextCallback(2);
      expect(back.searchParams.get('challengeId')).toBe(challengeId);
      expect(back.searchParams.get('error')).toBe('access_denied');
      expect(back.searchParams.has('code')).toBe(false);
      expect(await poll(challengeId)).toBe('denied');
    });

    it('Deny without a callback tells the server, and says the command line stops', async () => {
      const start = await server.request('POST', '/api/v1/auth/cli/start', {
        project: null,
        environment: null,
        key: null,
        body: { project: 'default', environment: 'production' },
      });
      const { challengeId } = start.body.data;
      await page.goto(studio(`/cli/authorize?challenge=${challengeId}`));
      await page.getByRole('button', { name: 'Deny' }).click();
      await page.getByText('the command line stops with an error').waitFor();
      expect(await poll(challengeId)).toBe('denied');
      expect(received.length).toBe(2);
    });
  });

  it('inserts an image from the media library at the cursor, found by search', async () => {
    const upload = async (filename: string) => {
      const form = new FormData();
      form.append('file', new Blob([PNG], { type: 'image/png' }), filename);
      const response = await fetch(`${server.url}/api/v1/media/upload`, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${server.adminKey}`,
          'x-cms-project': 'default',
          'x-cms-environment': 'production',
        },
        body: form,
      });
      expect(response.status).toBe(201);
      return ((await response.json()) as { data: { url: string } }).data;
    };
    const walrus = await upload('walrus-photo.png');
    await upload('otter.png');
    const before = (await api('GET', `/content/${postId}?draft=true`)).body.data;
    await page.goto(studio(`/content/post/${postId}`));
    await page.getByText('No changes').waitFor();
    await page.getByRole('textbox', { name: 'Body' }).click();
    await page.keyboard.press('Control+End');
    await page.keyboard.press('Enter');
    await page.getByRole('button', { name: 'Insert media' }).click();
    const library = page.getByRole('dialog', { name: 'Media library' });
    await library.getByText('2 files').waitFor();
    await expectAccessible(page);
    await screenshots(page, 'media-library');
    await library.getByLabel('Search media by file name').fill('walrus');
    await library.getByRole('button', { name: 'Search' }).click();
    await library.getByText('1 file matching').waitFor();
    expect(await library.getByRole('button', { name: /^Insert / }).count()).toBe(1);
    await library.getByRole('button', { name: 'Insert walrus-photo.png' }).click();
    await page.getByText('Unsaved changes').waitFor();
    // Focus is back in the body, just after the inserted image: what is typed next follows it.
    await page.keyboard.type(' more');
    await page.keyboard.press('Control+s');
    await page.getByText(/Saved at/).waitFor();
    const stored = (await api('GET', `/content/${postId}?draft=true`)).body.data;
    // The server's path, not its listen address (no CMS_PUBLIC_URL here).
    expect(stored.body).toBe(`${before.body}\n![walrus-photo](${new URL(walrus.url).pathname}) more`);
  });
});
