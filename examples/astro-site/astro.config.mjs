// The site's output and the content cache may be moved elsewhere (the repository's test builds it in a
// scratch folder): ASTRO_OUT_DIR, ASTRO_CACHE_DIR.
import { defineConfig } from 'astro/config';

export default defineConfig({
  ...(process.env.ASTRO_OUT_DIR ? { outDir: process.env.ASTRO_OUT_DIR } : {}),
  ...(process.env.ASTRO_CACHE_DIR ? { cacheDir: process.env.ASTRO_CACHE_DIR } : {}),
});
