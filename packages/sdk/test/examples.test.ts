/** The README's examples, run without their frameworks: each handler is called as the framework would. */
import { signWebhook } from '@cms/core';
import type { WebhookEvent } from '@cms/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { blogClient, loadPost } from './examples/astro-page.js';
import { createWebhookHandler } from './examples/webhook-receiver.js';
import { type SdkHarness, startSdkServer } from './sdk-fixtures.js';

let harness: SdkHarness;
let authorId = '';
beforeAll(async () => {
  harness = await startSdkServer();
  process.env.CMS_URL = harness.server.url;
  process.env.CMS_API_KEY = harness.server.adminKey;
  const cms = harness.client();
  const author = await cms.content.create({ type: 'author', path: 'grace', frontmatter: { name: 'Grace' } });
  authorId = author.documentId;
  await cms.content.publish(authorId);
  const post = await cms.content.create({
    type: 'post',
    path: 'hello',
    frontmatter: { title: 'Hello', slug: 'hello', author: authorId },
  });
  await cms.content.publish(post.documentId);
});
afterAll(() => harness.server.close());

describe('README examples', () => {
  it('Next.js route: lists posts as JSON', async () => {
    const { GET } = await import('./examples/next-route.js');
    const response = await GET(new Request('https://site.test/api/posts?page=1'));
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ posts: [{ path: 'hello', title: 'Hello' }], hasMore: false });
  });

  it('Astro page: loads a post by slug with its author resolved', async () => {
    const cms = blogClient(harness.server.url, harness.server.adminKey);
    const { post, author } = await loadPost(cms, 'hello');
    expect(post?.frontmatter.title).toBe('Hello');
    expect(author).toBe('Grace');
    expect((await loadPost(cms, 'nope')).post).toBeNull();
  });

  it('preview route: renders the draft of a preview token, refuses a bad one', async () => {
    const { GET } = await import('./examples/preview-route.js');
    const cms = harness.client();
    const draft = await cms.content.create({
      type: 'post',
      path: 'draft',
      frontmatter: { title: 'Unreleased', author: authorId },
    });
    const { token } = await cms.content.previewToken(draft.documentId);
    const response = await GET(new Request(`https://site.test/api/preview?token=${token}`));
    expect(response.status).toBe(200);
    expect(await response.text()).toBe('<h1>Unreleased</h1>');
    const forged = `${token.slice(0, -4)}AAAA`;
    expect((await GET(new Request(`https://site.test/api/preview?token=${forged}`))).status).toBe(401);
    expect((await GET(new Request('https://site.test/api/preview'))).status).toBe(400);
  });

  it('webhook receiver: 204 on a signed delivery, 400 with the reason otherwise', async () => {
    const events: WebhookEvent[] = [];
    const secret = 'receiver-secret-0123456789abcdef0123456789';
    const POST = createWebhookHandler(secret, (event) => events.push(event));
    const body = JSON.stringify({ event: 'content.published', document: { path: 'hello' } });
    const headers = signWebhook({ secret, body, deliveryId: 'dlv_1' });
    const ok = await POST(new Request('https://site.test/hook', { method: 'POST', body, headers: { ...headers } }));
    expect(ok.status).toBe(204);
    expect(events).toHaveLength(1);
    const bad = await POST(
      new Request('https://site.test/hook', { method: 'POST', body: `${body} `, headers: { ...headers } }),
    );
    expect(bad.status).toBe(400);
    expect(await bad.text()).toBe('bad_signature');
  });
});
