/** An editor changes their own password on the account security page, then signs in with the new one. */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ADMIN_PASSWORD,
  createEditor,
  createFirstAdmin,
  launchBrowser,
  type StudioServer,
  seriousViolations,
  signInAs,
  startStudioServer,
} from './support/studio-harness.js';

const EDITOR_EMAIL = 'password-editor@example.test';
const NEW_PASSWORD = 'a brand new passphrase 2026';

describe('changing one’s own password in Chromium', () => {
  let server: StudioServer;
  let browser: Browser;
  let page: Page;

  beforeAll(async () => {
    [server, browser] = await Promise.all([startStudioServer(), launchBrowser()]);
    await createFirstAdmin(server);
    await createEditor(server, EDITOR_EMAIL);
    page = await (await browser.newContext({ viewport: { width: 1280, height: 900 } })).newPage();
  });

  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  it('shows a wrong current password on its field, then changes it; the new password signs in', async () => {
    await signInAs(page, server, EDITOR_EMAIL);
    await page.getByRole('link', { name: 'Account security' }).click();
    await page.getByRole('heading', { name: 'Password', exact: true }).waitFor();

    await page.getByLabel('Current password').fill('not my password at all');
    await page.getByLabel('New password', { exact: true }).fill(NEW_PASSWORD);
    await page.getByLabel('Repeat new password').fill(NEW_PASSWORD);
    await page.getByRole('button', { name: 'Change password' }).click();
    await page.getByText('is not your current password').waitFor();
    expect(await page.getByLabel('Current password').getAttribute('aria-invalid')).toBe('true');
    expect(await page.getByLabel('Current password').getAttribute('autocomplete')).toBe('current-password');
    expect(await page.getByLabel('New password', { exact: true }).getAttribute('autocomplete')).toBe('new-password');

    await page.getByLabel('Current password').fill(ADMIN_PASSWORD);
    await page.getByRole('button', { name: 'Change password' }).click();
    await page.getByRole('status').getByText('Your password is changed.').waitFor();
    expect(await seriousViolations(page)).toEqual([]);

    await page.goto(`${server.url}/studio/`);
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByRole('heading', { name: 'Sign in' }).waitFor();
    await page.getByLabel('Email').fill(EDITOR_EMAIL);
    await page.getByLabel('Password').fill(ADMIN_PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByText('The email or password is not right.').waitFor();
    await page.getByLabel('Password').fill(NEW_PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { name: 'Dashboard' }).waitFor();
  });
});
