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
    // The SDK and core from source (the SDK imports only types and the route table from core).
    alias: [
      { find: /^@cms\/sdk$/, replacement: source('../sdk/src/index.ts') },
      { find: /^@cms\/core\/route-table$/, replacement: source('../core/src/wire/route-table.ts') },
      { find: /^@cms\/core$/, replacement: source('../core/src/index.ts') },
    ],
  },
  // React's production build, whatever NODE_ENV the shell has.
  define: command === 'build' ? { 'process.env.NODE_ENV': JSON.stringify('production') } : {},
  build: { outDir: 'dist', emptyOutDir: true, sourcemap: true, chunkSizeWarningLimit: 1500 },
  server: {
    proxy: { '/api': { target: process.env.CMS_DEV_API ?? 'http://127.0.0.1:3000', changeOrigin: false } },
  },
}));
