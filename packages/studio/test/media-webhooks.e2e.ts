import type { ServerResponse } from 'node:http';
import { createServer as createTcpServer } from 'node:net';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verifyWebhook } from '../../sdk/src/verify-webhook.js';
import { BLOG_SCHEMA, hashHeader, postFrontmatter, syncBody } from '../../server/test/content/fixtures.js';
import { startServerOn } from '../../server/test/support/server-on-database.js';
import { createTestDatabase } from '../../server/test/support/test-database.js';
import type { RequestOptions, TestResponse } from '../../server/test/support/test-server.js';
import { type ReceivedRequest, startReceiver, type TestReceiver } from '../../server/test/webhooks/https-receiver.js';
import { createWebhookTestEnv, type WebhookTestEnv } from '../../server/test/webhooks/webhook-fixtures.js';
import {
  ADMIN_EMAIL,
  ADMIN_PASSWORD,
  launchBrowser,
  screenshots,
  seriousViolations,
} from './support/studio-harness.js';

/** A 1x1 PNG. */
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR4nGMAAQAABQABDQottAAAAABJRU5ErkJggg==',
  'base64',
);
/** The project's image limit in these tests, and a PNG over it (the bytes still say PNG). */
const IMAGE_LIMIT = 2048;
const BIG_PNG = Buffer.concat([PNG, Buffer.alloc(IMAGE_LIMIT + 500)]);

interface Server {
  url: string;
  setupToken: string;
  request(method: string, path: string, options?: RequestOptions): Promise<TestResponse>;
  close(): Promise<void>;
}

/**
 * Like the harness's server, with the settings that let webhooks go to a receiver on loopback that
 * a throwaway CA signed (CMS_WEBHOOK_ALLOW_PRIVATE, CMS_WEBHOOK_CA_FILE).
 */
async function startServer(env: Record<string, string>): Promise<Server> {
  const database = await createTestDatabase();
  const lines: Array<Record<string, unknown>> = [];
  // A known port, so CMS_PUBLIC_URL (which media urls are built from) points at this server.
  const port = await freePort();
  const server = await startServerOn(database, {
    env: { LOG_LEVEL: 'warn', PORT: String(port), CMS_PUBLIC_URL: `http://127.0.0.1:${port}`, ...env },
    logStream: { write: (line: string) => void lines.push(JSON.parse(line) as Record<string, unknown>) },
  });
  const setupUrl = lines.find((line) => typeof line.setupUrl === 'string')?.setupUrl as string | undefined;
  if (!setupUrl) throw new Error('The server logged no setup address.');
  return {
    url: server.url,
    setupToken: new URL(setupUrl).searchParams.get('token') as string,
    request: server.request,
    async close() {
      await server.close();
      await database.close();
    },
  };
}

async function freePort(): Promise<number> {
  const probe = createTcpServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const address = probe.address();
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return typeof address === 'object' && address ? address.port : 0;
}

/**
 * The media library and the webhooks pages in Chromium, against a real server and a real HTTPS
 * receiver on 127.0.0.1.
 */
describe('media library and webhooks in Chromium', () => {
  let webhookEnv: WebhookTestEnv;
  let receiver: TestReceiver;
  /** What the receiver answers. */
  const answer = { status: 200 };
  let server: Server;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;

  const studio = (path: string) => `${server.url}/studio${path}`;
  const api = (method: string, path: string, body?: unknown) =>
    server.request(
      method,
      `/api/v1${path}`,
      body === undefined ? {} : { body, headers: method === 'GET' ? {} : hashHeader() },
    );
  const expectAccessible = async () => expect(await seriousViolations(page)).toEqual([]);
  /** At 768 px nothing is cut off sideways; back to 1280 after. */
  const expectFitsAt768 = async () => {
    await page.setViewportSize({ width: 768, height: 900 });
    const overflow = (await page.evaluate('document.documentElement.scrollWidth - window.innerWidth')) as number;
    expect(overflow).toBeLessThanOrEqual(0);
    await expectAccessible();
    await page.setViewportSize({ width: 1280, height: 900 });
  };
  const publishPost = async (path: string) => {
    const created = await api('POST', '/content', {
      type: 'post',
      path,
      frontmatter: postFrontmatter({ title: `Post ${path}`, slug: path }),
      body: 'Hello.',
    });
    expect(created.status, created.text).toBe(201);
    const published = await api('POST', `/content/${created.body.data.documentId}/publish`, {});
    expect(published.status, published.text).toBe(200);
  };

  beforeAll(async () => {
    webhookEnv = await createWebhookTestEnv();
    receiver = await startReceiver(webhookEnv.certificates, (_request: ReceivedRequest, response: ServerResponse) => {
      response.writeHead(answer.status, { 'content-type': 'text/plain' });
      response.end(answer.status === 200 ? 'thanks' : 'receiver is down');
    });
    [server, browser] = await Promise.all([startServer(webhookEnv.env), launchBrowser()]);
    context = await browser.newContext({
      viewport: { width: 1280, height: 900 },
      permissions: ['clipboard-read', 'clipboard-write'],
    });
    page = await context.newPage();
    page.setDefaultTimeout(15_000);
    const sync = await server.request('PUT', '/api/v1/schema/sync', { body: syncBody(BLOG_SCHEMA) });
    expect(sync.status, sync.text).toBe(200);
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
    await receiver?.close();
    await webhookEnv?.cleanup();
  });

  it('uploads several files by picker and by drop, with the image limit said first and over-limit files refused', async () => {
    const settings = await server.request('PUT', '/api/v1/settings', { body: { mediaImageMaxBytes: IMAGE_LIMIT } });
    expect(settings.status, settings.text).toBe(200);
    await page.getByRole('navigation', { name: 'Studio' }).getByRole('link', { name: 'Media library' }).click();
    await page.getByRole('heading', { name: 'Media library' }).waitFor();
    await page.getByText('Images may be at most 2 KB each in this project').waitFor();
    await page.getByText('No files here yet').waitFor();

    // Two at once through the picker.
    await page.getByLabel('Choose files to upload').setInputFiles([
      { name: 'walrus-photo.png', mimeType: 'image/png', buffer: PNG },
      { name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('Meeting notes\n') },
    ]);
    const uploads = page.getByRole('list', { name: 'Uploads' });
    await uploads.getByText('walrus-photo.png · 67 bytes · Uploaded').waitFor();
    await uploads.getByText('notes.txt · 14 bytes · Uploaded').waitFor();
    expect(await page.getByRole('progressbar', { name: 'Upload progress of notes.txt' }).getAttribute('value')).toBe(
      '100',
    );

    // One dropped on the page.
    // Page code as text: the tests are compiled without the DOM's types.
    const dropped = await page.evaluateHandle(
      "(() => { const t = new DataTransfer(); t.items.add(new File(['a,b\\n1,2\\n'], 'figures.csv', { type: 'text/csv' })); return t; })()",
    );
    await page.locator('.drop-zone').dispatchEvent('dragover', { dataTransfer: dropped });
    await page.locator('.drop-zone').dispatchEvent('drop', { dataTransfer: dropped });
    await uploads.getByText('figures.csv · 8 bytes · Uploaded').waitFor();

    // Over the limit: an image the browser knows is one is not sent; one it does not know is refused by the server.
    await page.getByLabel('Choose files to upload').setInputFiles([
      { name: 'huge.png', mimeType: 'image/png', buffer: BIG_PNG },
      { name: 'disguised.bin', mimeType: 'application/octet-stream', buffer: BIG_PNG },
    ]);
    await uploads.getByText('Not sent: 2.6 KB is over this project’s image limit of 2 KB.').waitFor();
    const refused = uploads.getByRole('alert').filter({ hasText: 'disguised.bin' });
    await refused.getByText('PAYLOAD_TOO_LARGE', { exact: false }).waitFor({ state: 'attached' });
    await page.getByRole('status').filter({ hasText: '1–3 of 3 files' }).waitFor();
    const listed = await api('GET', '/media');
    expect(listed.body.data.map((asset: { filename: string }) => asset.filename).sort()).toEqual([
      'figures.csv',
      'notes.txt',
      'walrus-photo.png',
    ]);
    await expectAccessible();
    await screenshots(page, 'media-upload');
    await page.getByRole('button', { name: 'Clear finished uploads' }).click();
    expect(await uploads.count()).toBe(0);
  });

  it('filters by category, search, uploader, dates and sort, with an inverted range refused by its code', async () => {
    const files = page.getByRole('list', { name: 'Files' });
    const names = async () => files.locator('.media-name').allTextContents();
    const pager = page.getByRole('navigation', { name: 'Pages' }).getByRole('status');

    await page.getByLabel('Category').selectOption('image');
    await pager.getByText('1–1 of 1 file').waitFor();
    expect(await names()).toEqual(['walrus-photo.png']);
    expect(new URL(page.url()).searchParams.get('category')).toBe('image');
    // Images show their thumbnail (loaded from the asset's address).
    await expect
      .poll(() =>
        files
          .locator('img')
          .evaluateAll((images) => images.map((i) => (i as unknown as { naturalWidth: number }).naturalWidth)),
      )
      .toEqual([1]);

    await page.getByLabel('Category').selectOption('document');
    await pager.getByText('1–2 of 2 files').waitFor();
    expect((await names()).sort()).toEqual(['figures.csv', 'notes.txt']);
    // Documents show an icon, not a thumbnail.
    expect(await files.locator('img').count()).toBe(0);
    expect(await files.locator('svg.media-icon-document').count()).toBe(2);

    await page.getByLabel('Search file names').fill('notes');
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    await pager.getByText('1–1 of 1 file').waitFor();
    expect(await names()).toEqual(['notes.txt']);

    await page.getByRole('button', { name: 'Clear filters' }).click();
    await pager.getByText('1–3 of 3 files').waitFor();

    await page.getByLabel('Uploaded by').selectOption({ label: `Me (${ADMIN_EMAIL})` });
    await pager.getByText('1–3 of 3 files').waitFor();

    const today = new Date().toISOString().slice(0, 10);
    await page.getByLabel('Uploaded from').fill(today);
    await pager.getByText('1–3 of 3 files').waitFor();
    await page.getByLabel('Uploaded to').fill('2020-01-01');
    await page.getByRole('alert').getByText('INVALID_QUERY_PARAM', { exact: false }).waitFor({ state: 'attached' });
    await page.getByText('The date range is inverted').waitFor();
    await page.getByLabel('Uploaded to').fill(today);
    await pager.getByText('1–3 of 3 files').waitFor();
    await page.getByLabel('Uploaded from').fill('2020-01-01');
    await page.getByLabel('Uploaded to').fill('2020-12-31');
    await page.getByText('No file matches these filters.').waitFor();
    await page.getByRole('button', { name: 'Clear filters' }).click();

    await page.getByLabel('Sort by').selectOption('filename');
    await pager.getByText('1–3 of 3 files').waitFor();
    await expect.poll(names).toEqual(['figures.csv', 'notes.txt', 'walrus-photo.png']);
    await page.getByLabel('Order').selectOption('desc');
    await expect.poll(names).toEqual(['walrus-photo.png', 'notes.txt', 'figures.csv']);
    await page.getByLabel('Sort by').selectOption('sizeBytes');
    await expect.poll(names).toEqual(['walrus-photo.png', 'notes.txt', 'figures.csv']);
    // The filters live in the address: a reload shows the same list.
    await page.reload();
    await expect.poll(names).toEqual(['walrus-photo.png', 'notes.txt', 'figures.csv']);
    expect(await page.getByLabel('Sort by').inputValue()).toBe('sizeBytes');
  });

  it('shows a file’s details, copies its address, and deletes it after confirmation', async () => {
    const walrus = (await api('GET', '/media?q=walrus')).body.data[0] as { id: string; url: string };
    const file = () => fetch(walrus.url);
    await page.getByRole('button', { name: /^walrus-photo\.png/ }).click();
    const details = page.getByRole('complementary', { name: 'walrus-photo.png' });
    await details.waitFor();
    await details.getByText('image/png').waitFor();
    await details.getByText('67 bytes').waitFor();
    expect(await details.getByLabel('Address').inputValue()).toBe(walrus.url);
    await details.getByRole('button', { name: 'Copy address' }).click();
    await details.getByText('Copied.').waitFor();
    expect(await page.evaluate('navigator.clipboard.readText()')).toBe(walrus.url);
    await expectAccessible();
    await screenshots(page, 'media-details');
    await expectFitsAt768();

    await details.getByRole('button', { name: 'Delete walrus-photo.png' }).click();
    const confirm = page.getByRole('dialog', { name: 'Delete walrus-photo.png?' });
    await confirm.getByRole('button', { name: 'Cancel' }).click();
    expect((await file()).status).toBe(200);
    await details.getByRole('button', { name: 'Delete walrus-photo.png' }).click();
    await confirm.getByRole('button', { name: 'Delete file' }).click();
    await page.getByText('Deleted walrus-photo.png. Its address no longer works.').waitFor();
    await page.getByRole('navigation', { name: 'Pages' }).getByText('1–2 of 2 files').waitFor();
    expect((await file()).status).toBe(404);
    expect((await api('GET', `/media/${walrus.id}`)).status).toBe(404);
  });

  it('chooses a file from the library for a URL field of a document', async () => {
    const notes = (await api('GET', '/media?q=notes')).body.data[0] as { url: string };
    await page.goto(studio('/content/author/new'));
    await page.getByLabel('Path').fill('ada');
    await page.getByRole('textbox', { name: 'Name (required)' }).fill('Ada');
    await page.getByRole('button', { name: 'Choose media for Website' }).click();
    const library = page.getByRole('dialog', { name: 'Media library' });
    await library.getByText('2 files').waitFor();
    await library.getByRole('button', { name: 'Choose notes.txt' }).click();
    expect(await page.getByLabel('Website').inputValue()).toBe(notes.url);
    await page.getByRole('button', { name: 'Create', exact: true }).click();
    await page.waitForURL(/\/studio\/content\/author\/[0-9a-f-]{36}$/);
    const authors = await api('GET', '/content?type=author&draft=true');
    expect(authors.body.data[0].frontmatter.website).toBe(notes.url);
  });

  it('creates a webhook (http refused with its code), shows the secret once, and logs a delivery after a publish', async () => {
    await page.goto(studio('/'));
    // Webhooks is a settings panel the content module contributes, listed on the Settings page.
    await page.getByRole('navigation', { name: 'Studio' }).getByRole('link', { name: 'Settings' }).click();
    await page.getByRole('main').getByRole('link', { name: 'Webhooks', exact: true }).click();
    await page.getByRole('heading', { name: 'Webhooks' }).waitFor();
    await page.getByText('No webhook in this environment yet.').waitFor();
    await page.getByRole('button', { name: 'New webhook' }).click();
    const form = page.getByRole('form', { name: 'New webhook' });
    await form.getByLabel('Address').fill(`http://127.0.0.1:${receiver.port}/hook`);
    expect(await form.getByLabel('content.published').isChecked()).toBe(true);
    await form.getByRole('button', { name: 'Create webhook' }).click();
    await form
      .getByRole('alert')
      .getByText('Error code INVALID_INPUT', { exact: false })
      .waitFor({ state: 'attached' });
    await form
      .getByText('must use https:// (webhooks are delivered over HTTPS only), got http://', { exact: true })
      .waitFor();
    expect(await form.getByLabel('Address').getAttribute('aria-invalid')).toBe('true');
    expect((await api('GET', '/webhooks')).body.data).toEqual([]);
    await expectAccessible();

    const address = receiver.url('/hook');
    await form.getByLabel('Address').fill(address);
    await form.getByRole('button', { name: 'Create webhook' }).click();
    const secretPanel = page.getByRole('region', { name: 'Signing secret' });
    await secretPanel.waitFor();
    const secret = await secretPanel.getByLabel('Secret').inputValue();
    expect(secret).toMatch(/^[A-Za-z0-9_-]{43}$/);
    await secretPanel.getByRole('button', { name: 'Copy secret' }).click();
    expect(await page.evaluate('navigator.clipboard.readText()')).toBe(secret);
    await expectAccessible();
    await screenshots(page, 'webhooks-secret');
    await secretPanel.getByRole('button', { name: 'I have stored it' }).click();
    expect(await page.getByRole('region', { name: 'Signing secret' }).count()).toBe(0);
    const [hook] = (await api('GET', '/webhooks')).body.data as Array<{ id: string; url: string; events: string[] }>;
    expect(hook).toMatchObject({ url: address, events: ['content.published'], active: true });

    await publishPost('first-news');
    await expect.poll(() => receiver.received.length, { timeout: 15_000 }).toBe(1);
    const first = receiver.received[0] as ReceivedRequest;
    // The secret shown is the one the server signs with.
    const event = await verifyWebhook({ payload: first.rawBody, headers: first.headers, secret });
    expect(event).toMatchObject({ event: 'content.published' });
    await expect
      .poll(async () => (await api('GET', `/webhooks/${hook?.id}/deliveries`)).body.data[0]?.status, {
        timeout: 15_000,
      })
      .toBe('succeeded');

    await page.getByRole('button', { name: `Deliveries of ${address}` }).click();
    const log = page.getByRole('region', { name: `Deliveries to ${address}` });
    const row = log.getByRole('row').filter({ hasText: 'content.published' });
    await row.getByText('Succeeded').waitFor();
    await row.getByText('HTTP 200').waitFor();
    await row.getByText(/^\d+ ms$/).waitFor();
    expect(await row.getByRole('cell').nth(2).textContent()).toBe('1');
    await row.getByRole('button', { name: 'Attempts' }).click();
    await log.getByText(/Round 1, attempt 1: succeeded, HTTP 200/).waitFor();
    await expectAccessible();
    await screenshots(page, 'webhooks-log');
    await expectFitsAt768();

    // Redeliver one: the same delivery again, with the same id.
    await row.getByRole('button', { name: 'Redeliver' }).click();
    await log.getByText('The content.published delivery is queued again').waitFor();
    await expect.poll(() => receiver.received.length, { timeout: 15_000 }).toBe(2);
    expect(receiver.received[1]?.headers['x-cms-delivery']).toBe(first.headers['x-cms-delivery']);
  });

  it('shows a failed delivery with its response code and redelivers every failed one since a time', async () => {
    const address = receiver.url('/hook');
    const [hook] = (await api('GET', '/webhooks')).body.data as Array<{ id: string }>;
    answer.status = 500;
    await publishPost('second-news');
    await expect
      .poll(
        async () =>
          (await api('GET', `/webhooks/${hook?.id}/deliveries?status=failed`)).body.data.map(
            (d: { attempts: number }) => d.attempts,
          ),
        { timeout: 20_000 },
      )
      .toEqual([3]);
    const log = page.getByRole('region', { name: `Deliveries to ${address}` });
    await log.getByRole('button', { name: 'Refresh deliveries' }).click();
    const failed = log.getByRole('row').filter({ hasText: 'Failed' });
    await failed.getByText('HTTP 500').waitFor();
    expect(await failed.getByRole('cell').nth(2).textContent()).toBe('3');

    answer.status = 200;
    const before = receiver.received.length;
    await log.getByLabel('Failed since').fill('2020-01-01T00:00');
    await log.getByRole('button', { name: 'Redeliver all failed' }).click();
    await log.getByText('1 failed delivery is queued again.').waitFor();
    await expect.poll(() => receiver.received.length, { timeout: 15_000 }).toBe(before + 1);
    await expect
      .poll(async () => (await api('GET', `/webhooks/${hook?.id}/deliveries?status=failed`)).body.pagination.total, {
        timeout: 15_000,
      })
      .toBe(0);
    await log.getByRole('button', { name: 'Refresh deliveries' }).click();
    await expect.poll(() => log.getByRole('row').filter({ hasText: 'Failed' }).count()).toBe(0);
  });

  it('edits, deactivates, activates and deletes a webhook after confirmation', async () => {
    const address = receiver.url('/hook');
    await page.getByRole('button', { name: `Edit ${address}` }).click();
    const form = page.getByRole('form', { name: 'Edit webhook' });
    await form.getByLabel('media.uploaded').check();
    await form.getByRole('button', { name: 'Save webhook' }).click();
    await page.getByText(`Saved the webhook to ${address}.`).waitFor();
    const table = page.getByRole('table', { name: 'Webhooks' });
    await table.getByText('media.uploaded').waitFor();
    expect((await api('GET', '/webhooks')).body.data[0].events).toEqual(['content.published', 'media.uploaded']);

    await page.getByRole('button', { name: `Deactivate ${address}` }).click();
    await table.getByText('Inactive').waitFor();
    expect((await api('GET', '/webhooks')).body.data[0].active).toBe(false);
    await page.getByRole('button', { name: `Activate ${address}` }).click();
    await table.getByText('Active', { exact: true }).waitFor();
    expect((await api('GET', '/webhooks')).body.data[0].active).toBe(true);

    await page.getByRole('button', { name: `Delete ${address}` }).click();
    const confirm = page.getByRole('dialog', { name: 'Delete this webhook?' });
    await expectAccessible();
    await confirm.getByRole('button', { name: 'Delete webhook' }).click();
    await page.getByText(`Deleted the webhook to ${address}`).waitFor();
    await page.getByText('No webhook in this environment yet.').waitFor();
    expect((await api('GET', '/webhooks')).body.data).toEqual([]);
  });
});
