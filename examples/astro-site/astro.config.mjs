// The site's output and the content cache may be moved elsewhere (the repository's test builds it in a
// scratch folder): ASTRO_OUT_DIR, ASTRO_CACHE_DIR. MDX bodies render through @astrojs/mdx; the live
// pages (src/pages/live) are rendered on request by the Node adapter.
import mdx from '@astrojs/mdx';
import node from '@astrojs/node';
import { defineConfig } from 'astro/config';

export default defineConfig({
  integrations: [mdx()],
  adapter: node({ mode: 'standalone' }),
  server: { host: '127.0.0.1' },
  ...(process.env.ASTRO_OUT_DIR ? { outDir: process.env.ASTRO_OUT_DIR } : {}),
  ...(process.env.ASTRO_CACHE_DIR ? { cacheDir: process.env.ASTRO_CACHE_DIR } : {}),
});
