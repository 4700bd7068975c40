/**
 * A small site for the live preview tests, on its own port (another origin than the Studio): its
 * preview page renders the title into `<h1 data-cms-field="title">` and the body with
 * `data-cms-source` lines, using the built `@cms/sdk/preview` and `@cms/sdk/markdown` (bundled by
 * esbuild as a site's build would). `/ssr/<path>?token=` is a page rendered on the server: it reads
 * the draft with the preview token and follows saved changes with `reloadOnPreviewChange`.
 * `/foreign.html`, served as `localhost` (another origin again), frames the preview page and posts it a
 * forged draft.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const SDK_DIST = fileURLToPath(new URL('../../../sdk/dist/', import.meta.url));

/** The page's script: what a site writes to follow the Studio's drafts. */
const SITE_SCRIPT = `
import { subscribeToPreview } from '@cms/sdk/preview';
import { renderMarkdownWithSourceLines } from '@cms/sdk/markdown';
window.received = [];
window.tokens = [];
subscribeToPreview(
  (doc) => {
    window.received.push({ title: doc.frontmatter.title, at: performance.timeOrigin + performance.now(), doc });
    document.getElementById('title').textContent = doc.frontmatter.title;
    document.getElementById('body').innerHTML = renderMarkdownWithSourceLines(doc.body);
  },
  { studioOrigin: window.STUDIO_ORIGIN, onToken: (token) => window.tokens.push(token) },
);
`;

/** The server-rendered page's script: reload on each saved change, following the Studio's renewed tokens. */
const SSR_SCRIPT = `
import { reloadOnPreviewChange } from '@cms/sdk/preview';
const token = new URL(location.href).searchParams.get('token');
reloadOnPreviewChange({ baseUrl: window.STUDIO_ORIGIN, token, studioOrigin: window.STUDIO_ORIGIN });
`;

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

export interface PreviewSite {
  /** `http://127.0.0.1:<port>`: the origin of previewUrl. */
  url: string;
  /** The same server as `http://localhost:<port>`: another origin. */
  foreignUrl: string;
  /** The titles the server-rendered page rendered, in order. */
  serverRenders: string[];
  close(): Promise<void>;
}

export async function startPreviewSite(studioOrigin: string): Promise<PreviewSite> {
  const bundle = async (contents: string) => {
    const bundled = await build({
      stdin: { contents, resolveDir: SDK_DIST, loader: 'js' },
      bundle: true,
      format: 'esm',
      platform: 'browser',
      write: false,
      alias: {
        '@cms/sdk/preview': `${SDK_DIST}live-preview/index.js`,
        '@cms/sdk/markdown': `${SDK_DIST}markdown/index.js`,
      },
    });
    return bundled.outputFiles[0]?.text ?? '';
  };
  const [script, ssrScript] = await Promise.all([bundle(SITE_SCRIPT), bundle(SSR_SCRIPT)]);
  const serverRenders: string[] = [];
  /** The server side of `/ssr/`: the draft read with the page's preview token, as a site's server reads it. */
  const renderOnServer = async (token: string): Promise<string> => {
    const claims = JSON.parse(Buffer.from(token.split('.')[1] ?? '', 'base64url').toString('utf8'));
    const read = await fetch(`${studioOrigin}/api/v1/content/${claims.documentId}?draft=true`, {
      headers: {
        authorization: `Preview ${token}`,
        'x-cms-project': claims.project,
        'x-cms-environment': claims.environment,
      },
    });
    const title = read.ok ? String(((await read.json()) as any).data.frontmatter.title) : `error ${read.status}`;
    serverRenders.push(title);
    return `<!doctype html><html lang="en"><title>Rendered on the server</title>
      <script>window.STUDIO_ORIGIN = ${JSON.stringify(studioOrigin)};</script>
      <h1 data-cms-field="title" id="title">${escapeHtml(title)}</h1>
      <script type="module" src="/ssr.js"></script></html>`;
  };
  let port = 0;
  const server: Server = createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://site');
    if (url.pathname === '/site.js') {
      response.writeHead(200, { 'content-type': 'text/javascript' }).end(script);
    } else if (url.pathname === '/ssr.js') {
      response.writeHead(200, { 'content-type': 'text/javascript' }).end(ssrScript);
    } else if (url.pathname.startsWith('/ssr/')) {
      renderOnServer(url.searchParams.get('token') ?? '').then(
        (html) => response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(html),
        (error: unknown) => response.writeHead(500).end(String(error)),
      );
    } else if (url.pathname.startsWith('/preview/')) {
      response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(
        `<!doctype html><html lang="en"><title>Site preview</title>
        <script>window.STUDIO_ORIGIN = ${JSON.stringify(studioOrigin)};</script>
        <h1 data-cms-field="title" id="title"></h1><main id="body"></main>
        <script type="module" src="/site.js"></script></html>`,
      );
    } else if (url.pathname === '/foreign.html') {
      const framed = `http://127.0.0.1:${port}/preview/x`;
      response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(
        `<!doctype html><html lang="en"><title>Foreign</title>
        <iframe id="site" src="${framed}" title="site"></iframe>
        <script>
          document.getElementById('site').addEventListener('load', () => {
            const forged = { type: 'cms:preview', kind: 'document', sequence: 1,
              document: { frontmatter: { title: 'Forged' }, body: '# Forged' } };
            setTimeout(() => { document.getElementById('site').contentWindow.postMessage(forged, '*'); window.posted = true; }, 200);
          });
        </script></html>`,
      );
    } else {
      response.writeHead(404).end();
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}`,
    foreignUrl: `http://localhost:${port}`,
    serverRenders,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
