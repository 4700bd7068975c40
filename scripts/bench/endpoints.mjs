/**
 * The endpoints measured, written against spec/interface.md ("Content endpoints", "Media
 * endpoints"). Each makes a workload: a `next()` request generator (rotating over documents where a
 * write must not repeat), an optional response hook, and for publish a request budget so no
 * document is published twice (a second publish without changes is a cheap no-op, decisions.md §3).
 */
import { createHash, randomBytes } from 'node:crypto';
import { ENVIRONMENT, PROJECT } from './seed.mjs';

const API = '/api/v1';
const LIST = `${API}/content?type=post&limit=20&sort=createdAt&order=desc`;
/** Size of the uploaded file. */
export const UPLOAD_BYTES = 1024 * 1024;
const MULTIPART_BOUNDARY = '----cms-bench-boundary-7f3a9c';

/**
 * @typedef {import('./measure.mjs').BenchRequest} BenchRequest
 * @typedef {import('./seed.mjs').SeedResult} SeedResult
 */

/**
 * What one scenario's endpoints share: the seed, and documents written along the way.
 * @typedef {object} ScenarioContext
 * @property {SeedResult} seed
 * @property {string} tag Random tag making created paths unique per scenario.
 * @property {string[]} createdIds Documents created by the create benchmark (draft-only: publishable once).
 * @property {Set<string>} updatedIds Published documents the update benchmark changed (publishable once).
 */

/**
 * @typedef {object} Workload
 * @property {() => BenchRequest} next
 * @property {(status: number, body: string) => void} [onResponse]
 * @property {() => number} [remaining] Requests left before the pool runs dry (publish).
 */

/**
 * @typedef {object} EndpointDefinition
 * @property {string} name Stable key in the JSON results.
 * @property {string} label Row title in the Markdown table.
 * @property {'read' | 'write'} kind Reads run at the read concurrency and compare to the ceilings.
 * @property {string} route `METHOD /path` with `{}` for parameters, matched against `GET /api/v1/actions`.
 * @property {(ctx: ScenarioContext) => Workload} workload
 */

/** @param {SeedResult} seed */
export function baseHeaders(seed) {
  return {
    authorization: `Bearer ${seed.apiKey}`,
    'x-cms-project': PROJECT,
    'x-cms-environment': ENVIRONMENT,
  };
}

/**
 * A complete, valid `post` frontmatter (the update body replaces the whole object).
 * @param {ScenarioContext} ctx
 * @param {number} n
 * @param {string} title
 */
function postFrontmatter(ctx, n, title) {
  const authors = ctx.seed.authorIds;
  return { title, slug: `bench-${n}`, author: authors[n % authors.length], tags: ['bench', `tag-${n % 10}`] };
}

/**
 * A published read. Unless `cached`, it sends `Cache-Control: no-cache`, which makes the CMS read
 * through to the database (its published read cache is skipped): the rows without "cached" measure
 * the read itself, the "cached" rows the same read answered from memory.
 * @param {ScenarioContext} ctx
 * @param {string} path
 * @param {{ cached?: boolean }} [options]
 * @returns {Workload}
 */
function getWorkload(ctx, path, options = {}) {
  const headers = { ...baseHeaders(ctx.seed), ...(options.cached ? {} : { 'cache-control': 'no-cache' }) };
  const request = { method: 'GET', path, headers };
  return { next: () => request };
}

/**
 * A client revalidating what it holds: the first answer's ETag (of its exact body) goes back in
 * `If-None-Match`, so every later answer is a 304 without a body.
 * @param {ScenarioContext} ctx
 * @param {string} path
 * @returns {Workload}
 */
function revalidateWorkload(ctx, path) {
  const request = { method: 'GET', path, headers: { ...baseHeaders(ctx.seed) } };
  return {
    next: () => request,
    onResponse: (status, body) => {
      if (status === 200 && !('if-none-match' in request.headers)) {
        const etag = `"${createHash('sha256').update(body).digest('base64url').slice(0, 32)}"`;
        request.headers = { ...request.headers, 'if-none-match': etag };
      }
    },
  };
}

/** @param {string} body */
function parseData(body) {
  try {
    return JSON.parse(body).data ?? null;
  } catch {
    return null;
  }
}

/** @param {number} status */
const isSuccess = (status) => status >= 200 && status < 300;

/** One multipart body with a single `file` part of random bytes (incompressible, like real media). */
function multipartUpload() {
  const head = Buffer.from(
    `--${MULTIPART_BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="bench.bin"\r\n` +
      'Content-Type: application/octet-stream\r\n\r\n',
  );
  const tail = Buffer.from(`\r\n--${MULTIPART_BOUNDARY}--\r\n`);
  return Buffer.concat([head, randomBytes(UPLOAD_BYTES), tail]);
}

/** @type {EndpointDefinition[]} */
export const ENDPOINTS = [
  {
    name: 'get-one',
    label: 'GET /content/{id} (published)',
    kind: 'read',
    route: 'GET /api/v1/content/{}',
    workload: (ctx) => getWorkload(ctx, `${API}/content/${ctx.seed.readDocumentId}`),
  },
  {
    name: 'list',
    label: 'GET /content list of 20',
    kind: 'read',
    route: 'GET /api/v1/content',
    workload: (ctx) => getWorkload(ctx, LIST),
  },
  {
    name: 'list-offset-5000',
    label: 'GET /content list of 20, offset 5000',
    kind: 'read',
    route: 'GET /api/v1/content',
    workload: (ctx) => getWorkload(ctx, `${LIST}&offset=5000`),
  },
  {
    name: 'list-resolve',
    label: 'GET /content list of 20, resolve=author',
    kind: 'read',
    route: 'GET /api/v1/content',
    workload: (ctx) => getWorkload(ctx, `${LIST}&resolve=author`),
  },
  {
    name: 'get-one-cached',
    label: 'GET /content/{id} (published, cached)',
    kind: 'read',
    route: 'GET /api/v1/content/{}',
    workload: (ctx) => getWorkload(ctx, `${API}/content/${ctx.seed.readDocumentId}`, { cached: true }),
  },
  {
    name: 'list-cached',
    label: 'GET /content list of 20 (cached)',
    kind: 'read',
    route: 'GET /api/v1/content',
    workload: (ctx) => getWorkload(ctx, LIST, { cached: true }),
  },
  {
    name: 'list-resolve-cached',
    label: 'GET /content list of 20, resolve=author (cached)',
    kind: 'read',
    route: 'GET /api/v1/content',
    workload: (ctx) => getWorkload(ctx, `${LIST}&resolve=author`, { cached: true }),
  },
  {
    name: 'get-one-304',
    label: 'GET /content/{id} If-None-Match (304)',
    kind: 'read',
    route: 'GET /api/v1/content/{}',
    workload: (ctx) => revalidateWorkload(ctx, `${API}/content/${ctx.seed.readDocumentId}`),
  },
  {
    name: 'list-304',
    label: 'GET /content list of 20 If-None-Match (304)',
    kind: 'read',
    route: 'GET /api/v1/content',
    workload: (ctx) => revalidateWorkload(ctx, LIST),
  },
  {
    name: 'create',
    label: 'POST /content (create)',
    kind: 'write',
    route: 'POST /api/v1/content',
    workload: (ctx) => {
      const headers = {
        ...baseHeaders(ctx.seed),
        'content-type': 'application/json',
        'x-cms-schema-hash': ctx.seed.schemaHash,
      };
      let n = 0;
      return {
        next: () => {
          n += 1;
          const body = JSON.stringify({
            type: 'post',
            path: `posts/bench-${ctx.tag}-${n}`,
            frontmatter: postFrontmatter(ctx, n, `Created ${n}`),
            body: `# Created ${n}\n\nWritten by the benchmark.`,
          });
          return { method: 'POST', path: `${API}/content`, headers, body };
        },
        onResponse: (status, body) => {
          const id = isSuccess(status) ? parseData(body)?.documentId : null;
          if (typeof id === 'string') ctx.createdIds.push(id);
        },
      };
    },
  },
  {
    name: 'update',
    label: 'PUT /content/{id} (update, rotating)',
    kind: 'write',
    route: 'PUT /api/v1/content/{}',
    workload: (ctx) => {
      const headers = {
        ...baseHeaders(ctx.seed),
        'content-type': 'application/json',
        'x-cms-schema-hash': ctx.seed.schemaHash,
      };
      const pool = ctx.seed.updatePool;
      /**
       * The draftRevision each document will have after the requests sent so far (seeded ones start
       * at 1). Counted on send, not on answer: autocannon drops the answers in flight when a run stops,
       * but the server still applies those updates. The pool is far larger than the connections, so a
       * document's previous update has always been answered before it comes round again.
       * @type {Map<string, number>}
       */
      const revisions = new Map();
      let n = 0;
      return {
        next: () => {
          const id = /** @type {string} */ (pool[n % pool.length]);
          n += 1;
          const revision = revisions.get(id) ?? 1;
          revisions.set(id, revision + 1);
          const body = JSON.stringify({
            frontmatter: postFrontmatter(ctx, n, `Updated ${n}`),
            body: `# Updated ${n}\n\nChanged by the benchmark.`,
            draftRevision: revision,
          });
          return { method: 'PUT', path: `${API}/content/${id}`, headers, body };
        },
        onResponse: (status, body) => {
          const data = isSuccess(status) ? parseData(body) : null;
          if (data && typeof data.documentId === 'string') ctx.updatedIds.add(data.documentId);
        },
      };
    },
  },
  {
    name: 'publish',
    label: 'POST /content/{id}/publish (rotating)',
    kind: 'write',
    route: 'POST /api/v1/content/{}/publish',
    workload: (ctx) => {
      const headers = { ...baseHeaders(ctx.seed), 'content-type': 'application/json' };
      // Each document once: created drafts first, then published documents the update run changed.
      const pool = [...ctx.createdIds, ...ctx.updatedIds];
      let n = 0;
      return {
        next: () => {
          // Past the end (only if the budget is exceeded) repeat the last one: a no-op publish.
          const id = pool[Math.min(n, pool.length - 1)] ?? ctx.seed.readDocumentId;
          n += 1;
          return { method: 'POST', path: `${API}/content/${id}/publish`, headers, body: '{}' };
        },
        remaining: () => Math.max(0, pool.length - n),
      };
    },
  },
  {
    name: 'media-upload',
    label: 'POST /media/upload (1 MB)',
    kind: 'write',
    route: 'POST /api/v1/media/upload',
    workload: (ctx) => {
      const body = multipartUpload();
      const request = {
        method: 'POST',
        path: `${API}/media/upload`,
        headers: { ...baseHeaders(ctx.seed), 'content-type': `multipart/form-data; boundary=${MULTIPART_BOUNDARY}` },
        body,
      };
      return { next: () => request };
    },
  },
];
