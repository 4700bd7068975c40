import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BLOG_SCHEMA, hashHeader, syncBody } from '../../server/test/content/fixtures.js';
import type { RequestOptions } from '../../server/test/support/test-server.js';
import {
  ADMIN_EMAIL,
  ADMIN_PASSWORD,
  launchBrowser,
  type StudioServer,
  screenshots,
  seriousViolations,
  startStudioServer,
} from './support/studio-harness.js';

/**
 * The administration pages end to end: API keys (created with an allowlist, used, revoked), people
 * (invite and accept, role, access, disable, own sessions), environments (clone, promote a chosen
 * part of the plan, delete). One server, one browser, an administrator signed in through the setup page.
 */
describe('the administration pages in Chromium', () => {
  let server: StudioServer;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;

  const studio = (path: string) => `${server.url}/studio${path}`;
  const api = (method: string, path: string, options: RequestOptions = {}) =>
    server.request(method, `/api/v1${path}`, {
      ...options,
      headers: { ...(method === 'GET' ? {} : hashHeader()), ...options.headers },
    });
  const expectAccessible = async (p: Page) => expect(await seriousViolations(p)).toEqual([]);
  /** The settings panels are module contributions, listed on the Settings page of the side navigation. */
  const openSettings = async (panel: string) => {
    await page.getByRole('navigation', { name: 'Studio' }).getByRole('link', { name: 'Settings' }).click();
    await page.getByRole('heading', { name: 'Settings', level: 1 }).waitFor();
    await page.getByRole('main').getByRole('link', { name: panel, exact: true }).click();
  };

  /**
   * Nothing wider than a 768 px window: the page reflows instead of scrolling sideways. `atNarrow`
   * checks more while the window is 768 px wide.
   */
  const expectFitsNarrow = async (p: Page, name: string, atNarrow?: () => Promise<void>) => {
    await p.setViewportSize({ width: 768, height: 900 });
    expect(await p.evaluate('document.documentElement.scrollWidth')).toBeLessThanOrEqual(768);
    await atNarrow?.();
    await expectAccessible(p);
    await p.setViewportSize({ width: 1280, height: 900 });
    await screenshots(p, name);
  };

  /**
   * The button named `label` is within the window's width and is what a click at its centre hits
   * (not clipped by a table box scrolling sideways, nor covered), with no box scrolled sideways to
   * get there. Scrolls the page vertically only.
   */
  const expectReachable = async (p: Page, label: string) => {
    const found = (await p.evaluate(`(() => {
      const button = document.querySelector(${JSON.stringify(`button[aria-label="${label}"]`)});
      if (!button) return { missing: true };
      window.scrollBy(0, button.getBoundingClientRect().top - window.innerHeight / 2);
      const box = button.getBoundingClientRect();
      const hit = document.elementFromPoint(box.left + box.width / 2, box.top + box.height / 2);
      return {
        left: box.left,
        right: box.right,
        width: window.innerWidth,
        hit: button === hit || button.contains(hit),
        scrolledSideways: button.closest('.table-scroll')?.scrollLeft ?? 0,
      };
    })()`)) as { missing?: true; left: number; right: number; width: number; hit: boolean; scrolledSideways: number };
    expect(found.missing).toBeUndefined();
    expect(found.scrolledSideways).toBe(0);
    expect(found.left).toBeGreaterThanOrEqual(0);
    expect(found.right).toBeLessThanOrEqual(found.width);
    expect(found.hit).toBe(true);
  };

  /**
   * Every header of the table holding the button named `rowButton` is left of the pinned actions
   * column (not under it) and is what a click at its centre hits, with the table's box not scrolled
   * sideways. Returns the headers' names, left to right.
   */
  const expectHeadersClear = async (p: Page, rowButton: string) => {
    const found = (await p.evaluate(`(() => {
      const table = document.querySelector(${JSON.stringify(`button[aria-label="${rowButton}"]`)}).closest('table');
      table.scrollIntoView();
      const heads = [...table.querySelectorAll('thead th')];
      const actions = heads.pop().getBoundingClientRect();
      return {
        scrolledSideways: table.closest('.table-scroll').scrollLeft,
        actionsLeft: actions.left,
        heads: heads.map((th) => {
          const box = th.getBoundingClientRect();
          const hit = document.elementFromPoint(box.left + box.width / 2, box.top + box.height / 2);
          return { name: th.textContent, left: box.left, right: box.right, hit: th === hit || th.contains(hit) };
        }),
      };
    })()`)) as {
      scrolledSideways: number;
      actionsLeft: number;
      heads: Array<{ name: string; left: number; right: number; hit: boolean }>;
    };
    expect(found.scrolledSideways).toBe(0);
    for (const head of found.heads) {
      expect({ ...head, covered: head.right > found.actionsLeft + 0.5 }).toMatchObject({
        name: head.name,
        covered: false,
        hit: true,
      });
      expect(head.left).toBeGreaterThanOrEqual(0);
    }
    return found.heads.map((head) => head.name);
  };

  /** Presses Tab until the focused element is the named control; fails if it is never reached. */
  const tabTo = async (p: Page, name: string, limit = 150) => {
    await p.locator('body').focus();
    for (let i = 0; i < limit; i++) {
      await p.keyboard.press('Tab');
      const focused = (await p.evaluate(
        "(() => { const e = document.activeElement; return e ? (e.getAttribute('aria-label') || e.textContent || '').trim() : '' })()",
      )) as string;
      if (focused === name) return;
    }
    throw new Error(`"${name}" was not reached with the keyboard`);
  };

  beforeAll(async () => {
    [server, browser] = await Promise.all([startStudioServer(), launchBrowser()]);
    context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: server.url });
    page = await context.newPage();
    const sync = await server.request('PUT', '/api/v1/schema/sync', { body: syncBody(BLOG_SCHEMA) });
    expect(sync.status, sync.text).toBe(200);
    const project = await api('POST', '/projects', { project: null, environment: null, body: { slug: 'marketing' } });
    expect(project.status, project.text).toBe(201);
    const staging = await api('POST', '/environments', {
      environment: null,
      body: { name: 'staging', extends: 'production' },
    });
    expect(staging.status, staging.text).toBe(201);

    await page.goto(studio(`/setup?token=${server.setupToken}`));
    await page.getByLabel('Email').fill(ADMIN_EMAIL);
    await page.getByLabel('Password', { exact: true }).fill(ADMIN_PASSWORD);
    await page.getByLabel('Repeat password').fill(ADMIN_PASSWORD);
    await page.getByRole('button', { name: 'Create administrator' }).click();
    await page.getByRole('heading', { name: 'Dashboard' }).waitFor();
  });

  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  describe('API keys', () => {
    let key = '';

    it('refuses an incomplete key in the browser and a past expiry from the server, with messages', async () => {
      await openSettings('API keys');
      await page.getByRole('heading', { name: 'API keys', level: 1 }).waitFor();
      await page.getByRole('button', { name: 'Clear' }).click();
      await page.getByRole('button', { name: 'Create key' }).click();
      await page.getByText('Give the key a label').waitFor();
      await page.getByText('Choose at least one scope.').waitFor();
      await page.getByText('Choose at least one project and environment.').waitFor();
      await expectAccessible(page);

      await page.getByLabel('Label').fill('expired already');
      await page.getByRole('button', { name: 'Read published content only' }).click();
      const defaults = page.locator('fieldset.pair-group', {
        has: page.locator('legend code', { hasText: /^default$/ }),
      });
      await defaults.getByRole('checkbox', { name: /^production/ }).check();
      await page.getByLabel('Expires').selectOption('date');
      await page.getByLabel('Expiry date').fill('2001-01-01');
      await page.getByRole('button', { name: 'Create key' }).click();
      const alert = page.getByRole('alert').filter({ hasText: 'The key was not created.' });
      await alert.getByText('Error code INVALID_INPUT', { exact: false }).waitFor({ state: 'attached' });
      await page.getByText('Expiry must be in the future').waitFor();
      expect((await api('GET', '/api-keys')).body.data.map((k: { label: string }) => k.label)).not.toContain(
        'expired already',
      );
    });

    it('creates a key allowed in one environment, shows it once with a copy button, and the API honours the allowlist', async () => {
      await page.getByLabel('Label').fill('site build');
      await page.getByLabel('Expires').selectOption('90');
      await tabTo(page, 'Create key');
      await page.keyboard.press('Enter');
      await page.getByRole('heading', { name: 'Key "site build" created' }).waitFor();
      await page.getByText('you will not see it again').waitFor();
      key = (await page.getByLabel('New API key').textContent()) as string;
      expect(key).toMatch(/^cms_key_live_/);
      await expectAccessible(page);
      await screenshots(page, 'api-key-created');
      await page.getByRole('button', { name: 'Copy key' }).click();
      await page.getByRole('button', { name: 'Copied', exact: true }).waitFor();
      expect(await page.evaluate('navigator.clipboard.readText()')).toBe(key);

      const allowed = await api('GET', '/content?type=post', { key });
      expect(allowed.status, allowed.text).toBe(200);
      const otherEnvironment = await api('GET', '/content?type=post', { key, environment: 'staging' });
      expect(otherEnvironment.status).toBe(403);
      expect(otherEnvironment.body.error.code).toBe('FORBIDDEN');
      const otherProject = await api('GET', '/content?type=post', { key, project: 'marketing' });
      expect(otherProject.status).toBe(403);
      expect(otherProject.body.error.code).toBe('FORBIDDEN');
      const outOfScope = await api('POST', '/content', { key, body: { type: 'post', path: 'x', frontmatter: {} } });
      expect(outOfScope.status).toBe(403);

      await page.getByRole('button', { name: 'Done, I have copied it' }).click();
      await page.getByRole('heading', { name: 'Create a key' }).waitFor();
      // Gone from the page: only the prefix stays.
      expect(await page.getByText(key).count()).toBe(0);
      const row = page.getByRole('row', { name: /site build/ });
      await row.getByText('Automation').waitFor();
      await row.getByText('default / production').waitFor();
      await row.getByText('Active').waitFor();
      // The row's Revoke button is on screen at 768 px, not past the edge of the table's box, and the
      // pinned actions column covers no header (it used to cover Expires and Status).
      const columns = ['Label', 'Kind', 'Scopes', 'Projects and environments', 'Last used', 'Expires', 'Status'];
      await expectFitsNarrow(page, 'api-keys', async () => {
        await expectReachable(page, 'Revoke site build');
        expect(await expectHeadersClear(page, 'Revoke site build')).toEqual(columns);
      });
      expect(await expectHeadersClear(page, 'Revoke site build')).toEqual(columns);
      await expectReachable(page, 'Revoke site build');
    });

    it('lists the command line keys of the device flow', async () => {
      const start = await server.request('POST', '/api/v1/auth/cli/start', {
        project: null,
        environment: null,
        key: null,
        body: { project: 'default', environment: 'production' },
      });
      expect(start.status, start.text).toBe(200);
      const { challengeId } = start.body.data;
      await page.goto(studio(`/cli/authorize?challenge=${challengeId}`));
      await page.getByRole('button', { name: 'Authorize' }).click();
      const code = (await page.getByLabel('One-time code').textContent()) as string;
      const exchange = await server.request('POST', '/api/v1/auth/cli/exchange', {
        project: null,
        environment: null,
        key: null,
        body: { challengeId, code },
      });
      expect(exchange.status, exchange.text).toBe(200);
      await page.goto(studio('/settings/api-keys'));
      const cliRow = page.getByRole('row').filter({ hasText: 'Command line' });
      await cliRow.getByText(/^cms_key_cli_/).waitFor();
      // Its label holds the user's email, one long word: the table still fits at 768 px.
      await page.setViewportSize({ width: 768, height: 900 });
      await expectHeadersClear(page, 'Revoke site build');
      await expectReachable(page, 'Revoke site build');
      await page.setViewportSize({ width: 1280, height: 900 });
    });

    it('revokes a key after confirmation, and the API refuses it at once', async () => {
      const dialogs: string[] = [];
      page.once('dialog', (dialog) => {
        dialogs.push(dialog.message());
        void dialog.dismiss();
      });
      await page.getByRole('button', { name: 'Revoke site build' }).click();
      expect(dialogs[0]).toContain('Revoke the key "site build"');
      expect((await api('GET', '/content?type=post', { key })).status).toBe(200);

      page.once('dialog', (dialog) => void dialog.accept());
      await page.getByRole('button', { name: 'Revoke site build' }).click();
      await page.getByText('Revoked "site build".').waitFor();
      const refused = await api('GET', '/content?type=post', { key });
      expect(refused.status).toBe(401);
      expect(refused.body.error.code).toBe('UNAUTHORIZED');
      expect(await page.getByRole('row', { name: /site build/ }).count()).toBe(0);
      await page.getByLabel('Show revoked and expired keys').check();
      await page
        .getByRole('row', { name: /site build/ })
        .getByText('Revoked')
        .waitFor();
    });
  });

  describe('People', () => {
    const invitedEmail = 'writer@example.test';
    let invitedContext: BrowserContext;
    let invitedPage: Page;

    afterAll(async () => {
      await invitedContext?.close();
    });

    it('invites someone, who accepts in another browser and appears in the list', async () => {
      await page.goto(studio('/'));
      await openSettings('People');
      await page.getByRole('heading', { name: 'People', level: 1 }).waitFor();
      await page
        .getByRole('row', { name: new RegExp(ADMIN_EMAIL) })
        .getByText('you')
        .waitFor();
      await expectAccessible(page);

      await page.getByLabel('Email to invite').fill('not an address');
      await page.getByRole('button', { name: 'Create invitation' }).click();
      await page.getByText('Enter an email address.').waitFor();
      await page.getByLabel('Email to invite').fill(ADMIN_EMAIL);
      await page.getByRole('button', { name: 'Create invitation' }).click();
      await page
        .getByRole('alert')
        .filter({ hasText: 'The invitation was not created.' })
        .getByText('Error code INVALID_INPUT', { exact: false })
        .waitFor({ state: 'attached' });

      await page.getByLabel('Email to invite').fill(invitedEmail);
      await page.locator('#invite-project').selectOption('default');
      await page.locator('#invite-role').selectOption('editor');
      await page.getByRole('button', { name: 'Create invitation' }).click();
      await page.getByText(`Invitation for ${invitedEmail} created.`).waitFor();
      const link = await page.getByLabel(`Invitation link for ${invitedEmail}`).inputValue();
      expect(link).toMatch(/\/studio\/invite\?token=/);
      await page.getByRole('button', { name: 'Copy link' }).click();
      expect(await page.evaluate('navigator.clipboard.readText()')).toBe(link);
      await expectFitsNarrow(page, 'people');

      invitedContext = await browser.newContext({ viewport: { width: 1280, height: 900 } });
      invitedPage = await invitedContext.newPage();
      const url = new URL(link);
      await invitedPage.goto(`${server.url}${url.pathname}${url.search}`);
      await invitedPage.getByLabel('Password', { exact: true }).fill('a writer password');
      await invitedPage.getByLabel('Repeat password').fill('a writer password');
      await invitedPage.getByRole('button', { name: 'Create account' }).click();
      await invitedPage.getByRole('heading', { name: 'Dashboard' }).waitFor();

      await page.reload();
      const row = page.getByRole('row', { name: new RegExp(invitedEmail) });
      await row.getByText('Active').waitFor();
      // Joined through a project invite: instance role viewer, the invite's role as a grant.
      expect(await row.getByLabel(`Role of ${invitedEmail}`, { exact: true }).inputValue()).toBe('viewer');
      // Accepted: no longer pending.
      await page.getByText('No pending invitations.').waitFor();
    });

    it('lists a pending invitation from the server and withdraws it, which kills its link', async () => {
      await page.getByLabel('Email to invite').fill('maybe@example.test');
      await page.getByRole('button', { name: 'Create invitation' }).click();
      const link = await page.getByLabel('Invitation link for maybe@example.test').inputValue();
      // In another tab the server's list shows it, without the link (shown only when created).
      const other = await context.newPage();
      await other.goto(studio('/settings/people'));
      await other.getByText('maybe@example.test').waitFor();
      await other.getByText('(instance)').waitFor();
      expect(await other.getByLabel('Invitation link for maybe@example.test').count()).toBe(0);
      await other.close();

      page.once('dialog', (dialog) => void dialog.accept());
      await page.getByRole('button', { name: 'Withdraw the invitation for maybe@example.test' }).click();
      await page.getByText('Withdrew the invitation for maybe@example.test.').waitFor();
      await page.getByText('No pending invitations.').waitFor();
      const token = new URL(link).searchParams.get('token');
      const refused = await api('POST', '/invites/accept', {
        key: null,
        project: null,
        environment: null,
        body: { token, password: 'a password long enough' },
      });
      expect(refused.status).toBe(400);
      expect(refused.body.error.code).toBe('INVALID_INPUT');
    });

    it("edits the invited user's access per project and environment", async () => {
      await page.getByRole('button', { name: `Access of ${invitedEmail}` }).click();
      await page.getByRole('heading', { name: `Access of ${invitedEmail}` }).waitFor();
      expect(await page.getByLabel('Role of grant 1').inputValue()).toBe('editor');
      await page.getByRole('button', { name: 'Add grant' }).click();
      await page.getByLabel('Project of grant 2').selectOption('marketing');
      await page.getByLabel('Environment of grant 2').selectOption('production');
      await page.getByLabel('Role of grant 2').selectOption('author');
      await expectAccessible(page);
      await page.getByRole('button', { name: 'Save access' }).click();
      await page.getByText(`Saved the access of ${invitedEmail}.`).waitFor();
      const users = await api('GET', '/users', { project: null, environment: null });
      const invited = users.body.data.find((u: { email: string }) => u.email === invitedEmail);
      const grants = await api('GET', `/users/${invited.id}/grants`, { project: null, environment: null });
      expect(grants.body.data).toEqual(
        expect.arrayContaining([
          { project: 'default', environment: '*', role: 'editor' },
          { project: 'marketing', environment: 'production', role: 'author' },
        ]),
      );
      expect(grants.body.data).toHaveLength(2);
      await page.getByRole('button', { name: 'Close' }).click();
    });

    it('creates a user, refuses a duplicate with its message, and changes a role', async () => {
      await page.getByText('Create a user').click();
      await page.getByLabel('Email', { exact: true }).fill('reviewer@example.test');
      await page.locator('#new-user-role').selectOption('viewer');
      await page.getByRole('button', { name: 'Create user' }).click();
      await page.getByText('Created reviewer@example.test.').waitFor();
      await page.getByLabel('Email', { exact: true }).fill('reviewer@example.test');
      await page.getByRole('button', { name: 'Create user' }).click();
      await page.getByRole('alert').filter({ hasText: 'The user was not created.' }).waitFor();

      await page.getByLabel(`Role of ${invitedEmail}`, { exact: true }).selectOption('author');
      await page.getByRole('button', { name: `Save role of ${invitedEmail}` }).click();
      await page.getByText(`${invitedEmail} is now author.`).waitFor();
      const users = await api('GET', '/users', { project: null, environment: null });
      expect(users.body.data.find((u: { email: string }) => u.email === invitedEmail).role).toBe('author');

      // The last administrator cannot be demoted: the server's message is shown.
      await page.getByLabel(`Role of ${ADMIN_EMAIL}`, { exact: true }).selectOption('editor');
      await page.getByRole('button', { name: `Save role of ${ADMIN_EMAIL}` }).click();
      await page
        .getByRole('alert')
        .filter({ hasText: 'The change was not saved.' })
        .getByText('Error code INVALID_INPUT', { exact: false })
        .waitFor({ state: 'attached' });
      await page.getByLabel(`Role of ${ADMIN_EMAIL}`, { exact: true }).selectOption('admin');
    });

    it('disables a user after confirmation, which signs them out', async () => {
      page.once('dialog', (dialog) => void dialog.accept());
      await page.getByRole('button', { name: `Disable ${invitedEmail}` }).click();
      await page.getByText(`${invitedEmail} is disabled and signed out.`).waitFor();
      await page
        .getByRole('row', { name: new RegExp(invitedEmail) })
        .getByText('Disabled')
        .waitFor();
      await invitedPage.reload();
      await invitedPage.getByRole('heading', { name: 'Sign in' }).waitFor();
      await page.getByRole('button', { name: `Enable ${invitedEmail}` }).click();
      await page.getByText(`${invitedEmail} is enabled again.`).waitFor();
    });

    it('lists my sessions, ends another one, and signs out everywhere', async () => {
      const login = () =>
        server.request('POST', '/api/v1/auth/login', {
          key: null,
          project: null,
          environment: null,
          headers: { 'user-agent': 'Mozilla/5.0 (Windows NT 10.0) Firefox/130.0' },
          body: { email: ADMIN_EMAIL, password: ADMIN_PASSWORD },
        });
      const cookieOf = (response: Awaited<ReturnType<typeof login>>) =>
        response.headers
          .getSetCookie()
          .map((c) => c.split(';')[0])
          .join('; ');
      const first = await login();
      expect(first.status, first.text).toBe(200);
      const second = await login();
      const sessionsWith = (cookie: string) =>
        server.request('GET', '/api/v1/auth/sessions', {
          key: null,
          project: null,
          environment: null,
          headers: { cookie },
        });
      expect((await sessionsWith(cookieOf(first))).status).toBe(200);

      await page.reload();
      const section = page.locator('section', { has: page.getByRole('heading', { name: 'Your sessions' }) });
      await section.getByText('this browser').waitFor();
      await section.getByText('Firefox on Windows').first().waitFor();
      await section
        .getByRole('button', { name: /^Sign out Firefox on Windows signed in/ })
        .first()
        .click();
      await section.getByText('Signed out Firefox on Windows.').waitFor();
      const ended = [await sessionsWith(cookieOf(first)), await sessionsWith(cookieOf(second))].map((r) => r.status);
      expect(ended.sort()).toEqual([200, 401]);

      let question = '';
      page.once('dialog', (dialog) => {
        question = dialog.message();
        void dialog.accept();
      });
      await section.getByRole('button', { name: 'Sign out everywhere' }).click();
      await page.getByRole('heading', { name: 'Sign in' }).waitFor();
      expect(question).toContain('Sign out everywhere?');
      expect((await sessionsWith(cookieOf(first))).status).toBe(401);
      expect((await sessionsWith(cookieOf(second))).status).toBe(401);
      await page.goto(studio('/'));
      await page.getByRole('heading', { name: 'Sign in' }).waitFor();
      await page.getByLabel('Email').fill(ADMIN_EMAIL);
      await page.getByLabel('Password').fill(ADMIN_PASSWORD);
      await page.getByRole('button', { name: 'Sign in' }).click();
      await page.getByRole('heading', { name: 'Dashboard' }).waitFor();
    });
  });

  describe('Environments', () => {
    const post = async (environment: string, path: string, title: string) => {
      const created = await api('POST', '/content', {
        environment,
        body: { type: 'post', path, frontmatter: { title, slug: path } },
      });
      expect(created.status, created.text).toBe(201);
      const published = await api('POST', `/content/${created.body.data.documentId}/publish`, {
        environment,
        body: {},
      });
      expect(published.status, published.text).toBe(200);
      return created.body.data.documentId as string;
    };
    const byPath = async (environment: string, path: string) => {
      const list = await api('GET', '/content?type=post&draft=true&limit=100', { environment });
      return list.body.data.find((d: { path: string }) => d.path === path) as
        | { documentId: string; frontmatter: { title: string }; draftRevision: number }
        | undefined;
    };

    it('lists environments with what they extend, and explains why the default one stays', async () => {
      await post('production', 'launch', 'Launch');
      await post('production', 'pricing', 'Pricing');
      await page.getByRole('navigation', { name: 'Studio' }).getByRole('link', { name: 'Environments' }).click();
      await page.getByRole('heading', { name: 'Environments', level: 1 }).waitFor();
      const staging = page.getByRole('row', { name: /^staging/ });
      await staging.getByRole('cell', { name: 'production' }).waitFor();
      await page
        .getByRole('row', { name: /^production/ })
        .getByText('The default environment cannot be deleted')
        .waitFor();
      expect(await page.getByRole('button', { name: 'Delete production' }).count()).toBe(0);
      await expectAccessible(page);
    });

    it('refuses a bad name in the browser and a taken one from the server', async () => {
      await page.getByLabel('Name', { exact: true }).fill('Not OK');
      await page.getByRole('button', { name: 'Create environment' }).click();
      await page.getByText('Use lowercase letters, digits and hyphens').waitFor();
      // Created meanwhile elsewhere: the server's answer is shown.
      const taken = await api('POST', '/environments', { environment: null, body: { name: 'taken' } });
      expect(taken.status).toBe(201);
      await page.getByLabel('Name', { exact: true }).fill('taken');
      await page.getByRole('button', { name: 'Create environment' }).click();
      await page
        .getByRole('alert')
        .filter({ hasText: 'The environment was not created.' })
        .getByText('CONFLICT', { exact: false })
        .waitFor({ state: 'attached' });
      await page.getByText('The name already exists in this project: choose another name').waitFor();
    });

    it('clones an environment, then promotes a chosen part of the plan after a dry run', async () => {
      await page.getByLabel('Name', { exact: true }).fill('feature');
      await page.getByLabel('A copy of another environment').check();
      await page.getByLabel('Copy of', { exact: true }).selectOption('production');
      await page.getByRole('button', { name: 'Create environment' }).click();
      await page.getByText('Created environment feature.').waitFor();
      await page.getByRole('row', { name: /^feature/ }).waitFor();
      expect(
        await page.locator('.switcher label', { hasText: 'Environment' }).locator('option').allTextContents(),
      ).toContain('feature');

      // Change one cloned document in feature and add one there, both published.
      const launch = await byPath('feature', 'launch');
      expect(launch?.frontmatter.title).toBe('Launch');
      const changed = await api('PUT', `/content/${launch?.documentId}`, {
        environment: 'feature',
        body: {
          frontmatter: { title: 'Launch, rewritten', slug: 'launch' },
          body: '',
          draftRevision: launch?.draftRevision,
        },
      });
      expect(changed.status, changed.text).toBe(200);
      expect(
        (await api('POST', `/content/${launch?.documentId}/publish`, { environment: 'feature', body: {} })).status,
      ).toBe(200);
      await post('feature', 'roadmap', 'Roadmap');

      await page.getByRole('button', { name: 'Promote from feature' }).click();
      await page.getByLabel('To', { exact: true }).selectOption('production');
      await page.getByRole('button', { name: 'Show plan' }).click();
      await page.getByText('1 to create, 1 to update, 1 unchanged, 0 conflicts').waitFor();
      const plan = page.locator('table', { has: page.getByRole('columnheader', { name: 'Action' }) });
      await plan
        .getByRole('row', { name: /launch/ })
        .getByText('Update')
        .waitFor();
      await plan
        .getByRole('row', { name: /roadmap/ })
        .getByText('Create')
        .waitFor();
      await plan
        .getByRole('row', { name: /pricing/ })
        .getByText('Unchanged')
        .waitFor();
      expect(await page.getByLabel('Promote pricing').isDisabled()).toBe(true);
      await expectAccessible(page);
      await expectFitsNarrow(page, 'environments');

      // Only the rewritten launch page; the dry run writes nothing.
      await page.getByLabel('Promote roadmap').uncheck();
      await page.getByRole('button', { name: 'Dry run of the selection' }).click();
      await page.getByText('Dry run, nothing written: 0 to create, 1 to update').waitFor();
      expect((await byPath('production', 'launch'))?.frontmatter.title).toBe('Launch');

      let question = '';
      page.once('dialog', (dialog) => {
        question = dialog.message();
        void dialog.accept();
      });
      await tabTo(page, 'Promote 1 document');
      await page.keyboard.press('Enter');
      await page.getByText('Promoted to production: launch (update).').waitFor();
      expect(question).toContain('Promote 1 document from feature to production?');
      expect((await byPath('production', 'launch'))?.frontmatter.title).toBe('Launch, rewritten');
      expect(await byPath('production', 'roadmap')).toBeUndefined();
      // The plan as it stands after: launch is now unchanged, roadmap still to create.
      await page.getByText('1 to create, 0 to update, 2 unchanged, 0 conflicts').waitFor();
    });

    it('shows a conflict and writes nothing', async () => {
      // An unpublished change in production's roadmap-less world: a draft on pricing makes it conflict.
      const pricing = await byPath('production', 'pricing');
      await api('PUT', `/content/${pricing?.documentId}`, {
        body: {
          frontmatter: { title: 'Pricing draft', slug: 'pricing' },
          body: '',
          draftRevision: pricing?.draftRevision,
        },
      });
      const featurePricing = await byPath('feature', 'pricing');
      await api('PUT', `/content/${featurePricing?.documentId}`, {
        environment: 'feature',
        body: {
          frontmatter: { title: 'Pricing v2', slug: 'pricing' },
          body: '',
          draftRevision: featurePricing?.draftRevision,
        },
      });
      await api('POST', `/content/${featurePricing?.documentId}/publish`, { environment: 'feature', body: {} });
      await page.getByRole('button', { name: 'Show plan' }).click();
      const plan = page.locator('table', { has: page.getByRole('columnheader', { name: 'Action' }) });
      await plan
        .getByRole('row', { name: /pricing/ })
        .getByText('Conflict')
        .waitFor();
      expect(await page.getByLabel('Promote pricing').isDisabled()).toBe(true);
    });

    it('deletes an environment after typing its name, and shows the error of one already gone', async () => {
      await page.getByRole('button', { name: 'Delete taken' }).click();
      const dialog = page.getByRole('dialog', { name: 'Delete environment taken?' });
      await dialog.waitFor();
      expect(await dialog.getByRole('button', { name: 'Delete environment' }).isDisabled()).toBe(true);
      await expectAccessible(page);
      // Deleted elsewhere meanwhile.
      expect((await api('DELETE', '/environments/taken', { environment: null })).status).toBe(200);
      await dialog.getByLabel('Type taken to confirm').fill('taken');
      await dialog.getByRole('button', { name: 'Delete environment' }).click();
      await dialog.getByText('ENVIRONMENT_NOT_FOUND', { exact: false }).waitFor({ state: 'attached' });
      await dialog.getByRole('button', { name: 'Cancel' }).click();

      await page.getByRole('button', { name: 'Delete feature' }).click();
      await page.getByLabel('Type feature to confirm').fill('feature');
      await page.getByRole('button', { name: 'Delete environment' }).click();
      await page.getByText('Deleted environment feature and everything in it.').waitFor();
      expect(await page.getByRole('row', { name: /^feature/ }).count()).toBe(0);
      const names = (await api('GET', '/environments', { environment: null })).body.data.map(
        (e: { name: string }) => e.name,
      );
      expect(names).not.toContain('feature');
    });
  });
});
