/**
 * The browser entry's budget: 15 kB min+gzip, bundled as a site would (esbuild, browser platform,
 * minified). The bundle must also not reach any Node built-in.
 */
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { build } from 'esbuild';
import { describe, expect, it } from 'vitest';

/** The budget of the entry, min+gzip, in bytes. */
const BUDGET_BYTES = 15 * 1024;

const source = (path: string) => fileURLToPath(new URL(path, import.meta.url));

async function bundle(entryContents: string) {
  const result = await build({
    stdin: { contents: entryContents, resolveDir: source('.'), loader: 'ts' },
    bundle: true,
    minify: true,
    format: 'esm',
    platform: 'browser',
    target: 'es2022',
    write: false,
    metafile: true,
    alias: {
      '@cms/sdk': source('../src/index.ts'),
      '@cms/core/errors': source('../../core/src/errors/cms-error.ts'),
      '@cms/core/route-table': source('../../core/src/wire/route-table.ts'),
    },
    // Any other import of core would pull its Node-only parts: fail the build instead.
    external: [],
    logLevel: 'silent',
  });
  const code = result.outputFiles[0]?.contents ?? new Uint8Array();
  return { code, inputs: Object.keys(result.metafile.inputs) };
}

describe('bundle size', () => {
  it('keeps the whole entry within 15 kB min+gzip, without Node built-ins', async () => {
    const { code, inputs } = await bundle("export * from '@cms/sdk';");
    const gzipped = gzipSync(code).length;
    expect(inputs.filter((input) => input.startsWith('node:') || input.includes('packages/server'))).toEqual([]);
    expect(inputs.some((input) => input.includes('core/src/schema'))).toBe(false);
    expect(gzipped, `${gzipped} bytes min+gzip`).toBeLessThanOrEqual(BUDGET_BYTES);
  });
});
