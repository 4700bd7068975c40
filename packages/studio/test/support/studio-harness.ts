/**
 * A real server on the embedded database (with the Studio's build) and Debian's Chromium, for the
 * browser tests. Seeding goes through the API with an admin key; the browser signs in like a person.
 */
import { mkdir, readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import type { ResolvedSchema } from '@cms/core';
import { type Browser, chromium, type Page } from 'playwright-core';
import { expect } from 'vitest';
import type { ServerModule } from '../../../server/src/modules/module-types.js';
import { syncBody } from '../../../server/test/content/fixtures.js';
import { startServerOn } from '../../../server/test/support/server-on-database.js';
import { createTestDatabase, type TestDatabase } from '../../../server/test/support/test-database.js';
import type { RequestOptions, TestResponse } from '../../../server/test/support/test-server.js';

export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
export const SCREENSHOTS = fileURLToPath(new URL('../../../../artifacts/studio-screenshots/', import.meta.url));
export const ADMIN_EMAIL = 'admin@example.test';
export const ADMIN_PASSWORD = 'correct horse battery staple';

export interface StudioServer {
  url: string;
  setupToken: string;
  adminKey: string;
  request(method: string, path: string, options?: RequestOptions): Promise<TestResponse>;
  close(): Promise<void>;
}

/**
 * A server with no user yet: the setup token it logged is returned. `modules` replaces the first-party
 * list; `env` adds settings (a short preview token lifetime, `CMS_REQUIRE_MFA`).
 */
export async function startStudioServer(
  options: { modules?: readonly ServerModule[]; env?: Record<string, string> } = {},
): Promise<StudioServer> {
  const database: TestDatabase = await createTestDatabase();
  const lines: Array<Record<string, unknown>> = [];
  const server = await startServerOn(database, {
    env: { LOG_LEVEL: 'warn', ...options.env },
    ...(options.modules ? { modules: options.modules } : {}),
    logStream: { write: (line: string) => void lines.push(JSON.parse(line) as Record<string, unknown>) },
  });
  const setupUrl = lines.find((line) => typeof line.setupUrl === 'string')?.setupUrl as string | undefined;
  if (!setupUrl) throw new Error('The server logged no setup address.');
  return {
    url: server.url,
    setupToken: new URL(setupUrl).searchParams.get('token') as string,
    adminKey: server.adminKey,
    request: server.request,
    async close() {
      await server.close();
      await database.close();
    },
  };
}

/** Headless Debian Chromium, with the flags this machine's closed network needs. */
export function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--disable-dev-shm-usage',
    ],
  });
}

let axeSource: string | null = null;

/** Runs axe-core on the page; returns every violation, of any impact (there should be none). */
export async function axeViolations(page: Page): Promise<string[]> {
  axeSource ??= await readFile(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
  // Evaluated through the DevTools protocol, so the page's Content-Security-Policy stays in force.
  await page.evaluate(axeSource);
  const violations = (await page.evaluate(
    "axe.run(document, { resultTypes: ['violations'] }).then((r) => r.violations.map((v) => ({ id: v.id, impact: v.impact, help: v.help, nodes: v.nodes.map((n) => n.target.join(' ')).slice(0, 3) })))",
  )) as Array<{ id: string; impact: string; help: string; nodes: string[] }>;
  return violations.map((v) => `${v.impact} ${v.id}: ${v.help} (${v.nodes.join(', ')})`);
}

/** The serious and critical violations only (the older scans; `axeViolations` holds every impact). */
export async function seriousViolations(page: Page): Promise<string[]> {
  return (await axeViolations(page)).filter((v) => v.startsWith('serious ') || v.startsWith('critical '));
}

/** axe at both widths the Studio supports, 1280 and 768 px; the viewport is put back after. */
export async function axeAtBothWidths(page: Page): Promise<Record<number, string[]>> {
  const before = page.viewportSize();
  const found: Record<number, string[]> = {};
  for (const width of [1280, 768]) {
    await page.setViewportSize({ width, height: before?.height ?? 900 });
    found[width] = await axeViolations(page);
  }
  if (before) await page.setViewportSize(before);
  return found;
}

/** Saves the page at 1280 px and at 768 px wide (artifacts/studio-screenshots, not committed). */
export async function screenshots(page: Page, name: string): Promise<void> {
  await mkdir(SCREENSHOTS, { recursive: true });
  const before = page.viewportSize();
  for (const width of [1280, 768]) {
    await page.setViewportSize({ width, height: 900 });
    // CodeMirror measures its lines only once in view; outside it, it guesses their heights and the
    // gutter's numbers drift from their lines in a full-page capture.
    // Then back to the top: a sticky panel (the editor's status) is drawn where the scroll left it.
    await page.evaluate(`(async () => {
      const frames = () => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)));
      document.querySelector('.cm-editor')?.scrollIntoView();
      await frames();
      window.scrollTo(0, 0);
      await frames();
    })()`);
    await page.screenshot({ path: `${SCREENSHOTS}${name}-${width}.png`, fullPage: true });
  }
  if (before) await page.setViewportSize(before);
}

/** The first administrator, made through the setup route as the setup page does; then `schema` synced. */
export async function createFirstAdmin(server: StudioServer, schema?: ResolvedSchema): Promise<void> {
  const setup = await server.request('POST', '/api/v1/setup', {
    key: null,
    project: null,
    environment: null,
    body: { token: server.setupToken, email: ADMIN_EMAIL, password: ADMIN_PASSWORD },
  });
  expect(setup.status, setup.text).toBe(200);
  if (!schema) return;
  const synced = await server.request('PUT', '/api/v1/schema/sync', { body: syncBody(schema) });
  expect(synced.status, synced.text).toBe(200);
}

/** Adds an editor of every environment of the default project, who signs in with the admin's password. */
export async function createEditor(server: StudioServer, email: string): Promise<void> {
  const editor = await server.request('POST', '/api/v1/users', {
    project: null,
    environment: null,
    body: { email, role: 'editor', password: ADMIN_PASSWORD },
  });
  expect(editor.status, editor.text).toBe(201);
  const granted = await server.request('PUT', `/api/v1/users/${editor.body.data.id}/grants`, {
    project: null,
    environment: null,
    body: [{ project: 'default', environment: '*', role: 'editor' }],
  });
  expect(granted.status, granted.text).toBe(200);
}

/** Signs a page in through the login form, as a person does, and waits for the dashboard. */
export async function signInAs(page: Page, server: StudioServer, email = ADMIN_EMAIL): Promise<void> {
  await page.goto(`${server.url}/studio/login`);
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(ADMIN_PASSWORD);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('heading', { name: 'Dashboard' }).waitFor();
}

/**
 * What `waitForFunction` predicates read in the page. Pass them as functions, never strings: the Studio's
 * CSP has no 'unsafe-eval', and Playwright evaluates a string again on every poll after the first.
 */
export type InPage = {
  document: {
    activeElement: { id: string; getAttribute(name: string): string | null } | null;
    getElementById(id: string): { textContent: string | null; contentWindow?: unknown } | null;
  };
  tokens: unknown[];
  posted?: boolean;
  received: unknown[];
};
