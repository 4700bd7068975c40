import { readFile, stat } from 'node:fs/promises';
import { extname, join, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { markEncoded, negotiateEncoding } from './compression.js';

/** Where the Studio is served: the web editor's static build, same origin as the API. */
export const STUDIO_PREFIX = '/studio';

/** The Studio's build folder, `packages/studio/dist` (same depth from `src/http` and `dist/http`). */
export const DEFAULT_STUDIO_DIR = fileURLToPath(new URL('../../../studio/dist/', import.meta.url));

/** Query parameters of Studio addresses that carry secrets (never logged). */
export const STUDIO_SECRET_QUERY = ['token', 'code', 'state'] as const;

const IMMUTABLE = 'public, max-age=31536000, immutable';
const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.txt': 'text/plain; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
};

const NOT_BUILT = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Studio not built</title></head>
<body><main><h1>The Studio is not built yet</h1><p>Run <code>npm run build -w @cms/studio</code>
(or <code>npm start</code>, which builds it when missing), then reload this page.</p></main></body></html>`;

/**
 * Serves the Studio's build at `/studio/` (decisions.md §7): hashed files under `assets/` are cached
 * for a year, everything else (`index.html` above all) is revalidated on every load, and any other
 * path under `/studio/` answers `index.html` so the page's own router shows it. `/studio` redirects
 * to `/studio/`.
 *
 * The files are answered from an `onRequest` hook registered before the access hooks: a page load
 * needs no credentials, and a stale session cookie must not turn the sign-in page into a 401.
 */
export function registerStudioStatic(app: FastifyInstance, options: { root?: string } = {}): void {
  const root = resolve(options.root ?? DEFAULT_STUDIO_DIR);
  const serve = (request: FastifyRequest, reply: FastifyReply) => serveStudio(root, request, reply);
  app.addHook('onRequest', async (request, reply) => {
    const route = request.routeOptions.url;
    if (route !== STUDIO_PREFIX && route !== `${STUDIO_PREFIX}/*`) return;
    await serve(request, reply);
    return reply;
  });
  // Pages that open from a link carry its secret: setup and invite `token`, a sign-in's `code`/`state`.
  const config = { secretQuery: STUDIO_SECRET_QUERY };
  app.get(STUDIO_PREFIX, { config }, serve);
  app.get(`${STUDIO_PREFIX}/*`, { config }, serve);
}

async function serveStudio(root: string, request: FastifyRequest, reply: FastifyReply): Promise<void> {
  const [pathname = '', query] = request.url.split(/\?(.*)/s, 2);
  if (pathname === STUDIO_PREFIX) {
    await reply.redirect(`${STUDIO_PREFIX}/${query ? `?${query}` : ''}`, 301);
    return;
  }
  let relative: string;
  try {
    relative = decodeURIComponent(pathname.slice(STUDIO_PREFIX.length + 1));
  } catch {
    relative = '';
  }
  const file = relative ? await existingFile(root, relative) : null;
  if (file) {
    const hashed = relative.startsWith('assets/');
    await sendFile(request, reply, file, hashed ? IMMUTABLE : 'no-cache');
    return;
  }
  // A missing hashed file is a real 404 (an old page asking for a replaced bundle), not the app.
  if (relative.startsWith('assets/')) {
    await reply.code(404).header('cache-control', 'no-cache').type('text/plain; charset=utf-8').send('Not found');
    return;
  }
  const index = await existingFile(root, 'index.html');
  if (!index) {
    // Every 503 says why at warn (docs/reliability.md): here, a server started without the Studio build.
    request.log.warn({ studioDir: root }, 'the Studio is not built: run `npm run build -w @cms/studio`');
    await reply.code(503).header('cache-control', 'no-cache').type('text/html; charset=utf-8').send(NOT_BUILT);
    return;
  }
  await sendFile(request, reply, index, 'no-cache');
}

/** The file under root for a request path, or null (missing, a folder, or outside root). */
async function existingFile(root: string, relative: string): Promise<string | null> {
  if (relative.includes('\0')) return null;
  const candidate = resolve(join(root, relative));
  if (!candidate.startsWith(root + sep)) return null;
  try {
    return (await stat(candidate)).isFile() ? candidate : null;
  } catch {
    return null;
  }
}

/** Where the build keeps each file's compressed forms (scripts/precompress.mjs). */
const SUFFIX = { br: '.br', gzip: '.gz' } as const;

/**
 * Sends a file, or its Brotli or gzip form made at build time when the browser accepts it (a file with
 * none, like a small one, goes through the app's own compression).
 */
async function sendFile(request: FastifyRequest, reply: FastifyReply, file: string, cacheControl: string) {
  const type = CONTENT_TYPES[extname(file)] ?? 'application/octet-stream';
  const encoding = negotiateEncoding(request.headers['accept-encoding']);
  const encoded = encoding ? await readFile(`${file}${SUFFIX[encoding]}`).catch(() => null) : null;
  const body = encoded ?? (await readFile(file));
  if (encoded) markEncoded(reply, encoding);
  // Content-Security-Policy and the other page headers come from http/security-headers.ts.
  reply.header('cache-control', cacheControl).type(type);
  await reply.send(body);
}
