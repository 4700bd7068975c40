/**
 * The SDK's built entry on a runtime other than Node.js (Bun, Deno): a write, a publish, typed errors,
 * a list with a resolved reference across pages, and a webhook signature checked with Web Crypto.
 * Reads CMS_SMOKE_URL and CMS_SMOKE_KEY; prints one JSON line with what it saw (the test asserts it).
 */
import { CmsError, createClient, verifyWebhook } from '../../dist/index.js';

const cms = createClient({
  baseUrl: process.env.CMS_SMOKE_URL,
  apiKey: process.env.CMS_SMOKE_KEY,
  project: 'default',
  environment: 'production',
  schemaHash: 'fetch',
});
const runtime = typeof Bun !== 'undefined' ? 'bun' : typeof Deno !== 'undefined' ? 'deno' : 'node';

const author = await cms.content.create({ type: 'author', path: `${runtime}-ada`, frontmatter: { name: 'Ada' } });
await cms.content.publish(author.documentId);
for (const n of [1, 2, 3]) {
  const post = await cms.content.create({
    type: 'post',
    path: `${runtime}-post-${n}`,
    frontmatter: { title: `${runtime} ${n}`, author: author.documentId },
  });
  await cms.content.publish(post.documentId);
}
const titles = [];
for await (const post of cms.content.iterate({ type: 'post', limit: 2, resolve: ['author'], sort: 'path' })) {
  if (post.path.startsWith(`${runtime}-`))
    titles.push(`${post.frontmatter.title} by ${post.frontmatter.author?.frontmatter.name}`);
}

let missing = null;
try {
  await cms.content.get('00000000-0000-4000-8000-000000000000');
} catch (error) {
  missing =
    error instanceof CmsError
      ? { code: error.code, status: error.status, requestId: Boolean(error.requestId) }
      : String(error);
}

// The Standard Webhooks specification's test vector.
const event = await verifyWebhook({
  secret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
  payload: '{"test": 2432232314}',
  headers: {
    'webhook-id': 'msg_p5jXN8AQM9LWM0D4loKWxJek',
    'webhook-timestamp': '1614265330',
    'webhook-signature': 'v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=',
  },
  now: 1614265330,
});

console.log(JSON.stringify({ runtime, titles, missing, event }));
