import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

const source = (path: string) => fileURLToPath(new URL(path, import.meta.url));

/**
 * The Studio builds to `dist/`, served by the server at `/studio/` (hashed files under `assets/`).
 * `npm run dev -w @cms/studio` starts a dev server that proxies `/api` to a running CMS
 * (`CMS_DEV_API`, default http://127.0.0.1:3000), so cookies and CSRF behave as in production.
 */
export default defineConfig(({ command }) => ({
  base: '/studio/',
  resolve: {
    // Workspace packages by name (declared in package.json), read from their sources: the SDK imports
    // only types and the route table from core.
    alias: [
      { find: /^@cms\/sdk$/, replacement: source('../sdk/src/index.ts') },
      { find: /^@cms\/sdk\/preview$/, replacement: source('../sdk/src/live-preview/index.ts') },
      { find: /^@cms\/sdk\/markdown$/, replacement: source('../sdk/src/markdown/index.ts') },
      { find: /^@cms\/core\/preview-url$/, replacement: source('../core/src/preview/preview-url.ts') },
      { find: /^@cms\/core\/document-title$/, replacement: source('../core/src/documents/document-title.ts') },
      { find: /^@cms\/core\/frontmatter$/, replacement: source('../core/src/schema/frontmatter.ts') },
      { find: /^@cms\/core\/scopes$/, replacement: source('../core/src/auth/scopes.ts') },
      { find: /^@cms\/core\/errors$/, replacement: source('../core/src/errors/cms-error.ts') },
      { find: /^@cms\/core\/route-table$/, replacement: source('../core/src/wire/route-table.ts') },
      { find: /^@cms\/core$/, replacement: source('../core/src/index.ts') },
    ],
  },
  // React's production build, whatever NODE_ENV the shell has.
  define: command === 'build' ? { 'process.env.NODE_ENV': JSON.stringify('production') } : {},
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    sourcemap: true,
    // The largest chunk is CodeMirror's (about 400 kB, 140 kB gzipped), fetched only by the editor;
    // anything growing past it should be looked at.
    chunkSizeWarningLimit: 600,
    rolldownOptions: {
      output: {
        // Vendor code in its own long-cached chunks, so a Studio release does not make browsers fetch
        // React or CodeMirror again. (Vite 8's successor of Rollup's `manualChunks`.) CodeMirror and
        // the markdown renderer are only imported dynamically by the editor (`markdown-editor.tsx`,
        // `preview.tsx`), so the sign-in page, dashboard and lists never download them.
        codeSplitting: {
          groups: [
            { name: 'react', test: /[\\/]node_modules[\\/](react|react-dom|scheduler|@tanstack)[\\/]/ },
            // CodeMirror with its Markdown language. Not the HTML, CSS and JavaScript grammars that Markdown
            // nests for HTML blocks and tags: they stay in the chunk of `editor/markdown-html.ts`, which the
            // editor fetches for a body with a `<` in it (`editor/markdown-language.ts`). Without
            // `includeDependenciesRecursively: false` the group would take them in anyway, as modules
            // `@codemirror/lang-markdown` imports (the editor does not use the part of it that does).
            {
              name: 'codemirror',
              includeDependenciesRecursively: false,
              test: /[\\/]node_modules[\\/](@codemirror(?![\\/](lang-html|lang-css|lang-javascript|autocomplete)[\\/])|@lezer(?![\\/](html|css|javascript|lr)[\\/])|crelt|style-mod|w3c-keyname|@marijn)[\\/]/,
            },
          ],
        },
      },
    },
  },
  server: {
    proxy: { '/api': { target: process.env.CMS_DEV_API ?? 'http://127.0.0.1:3000', changeOrigin: false } },
  },
}));
