/** Two-factor authentication in Chromium: enrolment forced by CMS_REQUIRE_MFA=admins, then the second sign-in step. */
import { Secret, TOTP } from 'otpauth';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ADMIN_EMAIL,
  ADMIN_PASSWORD,
  launchBrowser,
  type StudioServer,
  startStudioServer,
} from './support/studio-harness.js';

describe('two-factor authentication in Chromium', () => {
  let server: StudioServer;
  let browser: Browser;
  let page: Page;
  const studio = (path: string) => `${server.url}/studio${path}`;
  let recoveryCodes: string[] = [];

  beforeAll(async () => {
    [server, browser] = await Promise.all([startStudioServer({ env: { CMS_REQUIRE_MFA: 'admins' } }), launchBrowser()]);
    page = await (await browser.newContext({ viewport: { width: 1280, height: 900 } })).newPage();
  });

  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  it('makes a new administrator set it up before the Studio opens, and shows the recovery codes once', async () => {
    await page.goto(studio(`/setup?token=${server.setupToken}`));
    await page.getByLabel('Email').fill(ADMIN_EMAIL);
    await page.getByLabel('Password', { exact: true }).fill(ADMIN_PASSWORD);
    await page.getByLabel('Repeat password').fill(ADMIN_PASSWORD);
    await page.getByRole('button', { name: 'Create administrator' }).click();
    await page.getByRole('heading', { name: 'Two-factor authentication' }).waitFor();
    await page.getByText('This server requires administrators').waitFor();
    await page.getByRole('button', { name: 'Set up two-factor authentication' }).click();
    await page.getByRole('heading', { name: 'Set up two-factor authentication' }).waitFor();
    const address = await page.locator('code').first().innerText();
    expect(address).toMatch(/^otpauth:\/\/totp\//);
    const secret = new URL(address).searchParams.get('secret') ?? '';
    const code = new TOTP({ secret: Secret.fromBase32(secret) }).generate();
    await page.getByLabel('Code from your app').fill(code);
    await page.getByRole('button', { name: 'Turn on' }).click();
    await page.getByRole('heading', { name: 'Recovery codes' }).waitFor();
    recoveryCodes = await page.getByRole('list', { name: 'Recovery codes' }).getByRole('listitem').allInnerTexts();
    expect(recoveryCodes).toHaveLength(10);
    await page.getByRole('button', { name: 'Continue to the Studio' }).click();
    await page.getByRole('heading', { name: 'Dashboard' }).waitFor();
  });

  it('asks for a code after the password, and takes a recovery code', async () => {
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByRole('heading', { name: 'Sign in' }).waitFor();
    await page.getByLabel('Email').fill(ADMIN_EMAIL);
    await page.getByLabel('Password').fill(ADMIN_PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { name: 'Two-factor authentication' }).waitFor();
    await page.getByLabel('Authentication code').fill('AAAA-AAAA-AAAA-AAAA-AAAA-AAAA');
    await page.getByRole('button', { name: 'Verify' }).click();
    await page.getByText('The code is not right').waitFor();
    await page.getByLabel('Authentication code').fill(recoveryCodes[0] ?? '');
    await page.getByRole('button', { name: 'Verify' }).click();
    await page.getByRole('heading', { name: 'Dashboard' }).waitFor();
  });

  it('replaces the recovery codes from the account security page; the old ones stop working', async () => {
    await page.goto(studio('/account/security'));
    await page.getByRole('heading', { name: 'New recovery codes' }).waitFor();
    await page.getByText('9 recovery codes left').waitFor();
    // A recovery code proves it (a TOTP code of the step used at enrolment would be a replay).
    await page.getByLabel('Code from your app or a recovery code').fill(recoveryCodes[1] ?? '');
    await page.getByRole('button', { name: 'New recovery codes' }).click();
    await page.getByRole('heading', { name: 'Recovery codes' }).waitFor();
    await page.getByText('the old ones no longer work').waitFor();
    const renewed = await page.getByRole('list', { name: 'Recovery codes' }).getByRole('listitem').allInnerTexts();
    expect(renewed).toHaveLength(10);
    expect(renewed.filter((code) => recoveryCodes.includes(code))).toEqual([]);

    await page.getByRole('button', { name: 'Continue to the Studio' }).click();
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByRole('heading', { name: 'Sign in' }).waitFor();
    await page.getByLabel('Email').fill(ADMIN_EMAIL);
    await page.getByLabel('Password').fill(ADMIN_PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { name: 'Two-factor authentication' }).waitFor();
    await page.getByLabel('Authentication code').fill(recoveryCodes[2] ?? '');
    await page.getByRole('button', { name: 'Verify' }).click();
    await page.getByText('The code is not right').waitFor();
    await page.getByLabel('Authentication code').fill(renewed[0] ?? '');
    await page.getByRole('button', { name: 'Verify' }).click();
    await page.getByRole('heading', { name: 'Dashboard' }).waitFor();
  });
});
