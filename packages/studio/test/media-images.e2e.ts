import type { Browser, Page } from 'playwright-core';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ADMIN_EMAIL,
  ADMIN_PASSWORD,
  launchBrowser,
  type StudioServer,
  seriousViolations,
  startStudioServer,
} from './support/studio-harness.js';

/**
 * The media details of an image in Chromium: transformed thumbnails and preview, the alt text, and
 * the focal point set by a click on the image, by dragging, and with the arrow keys.
 */
describe('image alt text and focal point in Chromium', () => {
  let server: StudioServer;
  let browser: Browser;
  let page: Page;
  let asset: { id: string; url: string };
  const target = { 'x-cms-project': 'default', 'x-cms-environment': 'production' };

  beforeAll(async () => {
    [server, browser] = await Promise.all([startStudioServer(), launchBrowser()]);
    page = await (await browser.newContext({ viewport: { width: 1280, height: 900 } })).newPage();
    page.setDefaultTimeout(15_000);
    const photo = await sharp({ create: { width: 800, height: 600, channels: 3, background: '#2a6' } })
      .png()
      .toBuffer();
    const form = new FormData();
    form.append('file', new Blob([photo], { type: 'image/png' }), 'harbour.png');
    const uploaded = await fetch(`${server.url}/api/v1/media/upload`, {
      method: 'POST',
      headers: { authorization: `Bearer ${server.adminKey}`, ...target },
      body: form,
    });
    expect(uploaded.status).toBe(201);
    asset = ((await uploaded.json()) as { data: { id: string; url: string } }).data;
    await page.goto(`${server.url}/studio/setup?token=${server.setupToken}`);
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

  const stored = async () =>
    (await server.request('GET', `/api/v1/media/${asset.id}`)).body.data as {
      alt: string;
      focalPoint: { x: number; y: number } | null;
    };

  it('shows transformed thumbnails, and saves alt text and a focal point chosen on the image', async () => {
    await page.goto(`${server.url}/studio/media`);
    const files = page.getByRole('list', { name: 'Files' });
    const thumbnail = files.locator('img').first();
    await thumbnail.waitFor();
    expect(await thumbnail.getAttribute('src')).toContain(`/api/v1/media/${asset.id}/image?w=320&h=220&fit=inside`);
    // The thumbnail is the transformed image, 293×220 (inside 320×220), not the 800×600 original.
    await expect
      .poll(() => thumbnail.evaluate((image) => (image as unknown as { naturalWidth: number }).naturalWidth))
      .toBe(293);

    await page.getByRole('button', { name: /^harbour\.png/ }).click();
    const details = page.getByRole('complementary', { name: 'harbour.png' });
    await details.getByText('800 × 600 pixels').waitFor();
    const save = details.getByRole('button', { name: 'Save alt text and focal point' });
    expect(await save.isDisabled()).toBe(true);

    await details.getByLabel('Alt text').fill('Boats in the harbour at dawn');
    const frame = details.getByTestId('focal-frame');
    await frame.locator('img').evaluate((image) => (image as unknown as { decode(): Promise<void> }).decode());
    const box = await frame.boundingBox();
    if (!box) throw new Error('the image has no box');
    // A drag: pressed at one place, released at another; the point follows to where it ends.
    await page.mouse.move(box.x + box.width * 0.5, box.y + box.height * 0.5);
    await page.mouse.down();
    await page.mouse.move(box.x + box.width * 0.6, box.y + box.height * 0.5, { steps: 4 });
    await page.mouse.move(box.x + box.width * 0.25, box.y + box.height * 0.75, { steps: 4 });
    await page.mouse.up();
    await save.click();
    await details.getByRole('status').getByText('Saved.').waitFor();
    const saved = await stored();
    expect(saved.alt).toBe('Boats in the harbour at dawn');
    expect(saved.focalPoint?.x).toBeCloseTo(0.25, 1);
    expect(saved.focalPoint?.y).toBeCloseTo(0.75, 1);

    // The keyboard moves the marker 5% a press.
    const marker = details.getByRole('button', { name: /^Focal point:/ });
    await marker.focus();
    await page.keyboard.press('ArrowRight');
    await page.keyboard.press('ArrowUp');
    await save.click();
    await expect.poll(async () => (await stored()).focalPoint?.x).toBeCloseTo((saved.focalPoint?.x ?? 0) + 0.05, 3);
    expect((await stored()).focalPoint?.y).toBeCloseTo((saved.focalPoint?.y ?? 0) - 0.05, 3);

    await details.getByRole('button', { name: 'Back to the middle' }).click();
    await save.click();
    await expect.poll(async () => (await stored()).focalPoint).toBeNull();
    expect(await seriousViolations(page)).toEqual([]);
  });
});
