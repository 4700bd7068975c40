#!/usr/bin/env node
/**
 * Writes `<file>.br` (Brotli, quality 11) and `<file>.gz` (gzip, level 9) next to every text file of at
 * least 1 KB in a folder: the Studio's build (`packages/studio` runs it after `vite build`). The server
 * sends these bytes as they are when the browser accepts the encoding (`http/studio-static.ts`), so a
 * page load costs no compression, at a strength too slow to use per request.
 * Usage: node scripts/precompress.mjs <folder>
 */
import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';

const TEXT = /\.(js|mjs|css|html|json|svg|txt)$/;
const MIN_BYTES = 1024;
const brotli = promisify(brotliCompress);
const gz = promisify(gzip);

/** Compresses every text file under `dir`; returns how many files and their plain and Brotli sizes. */
export async function precompress(dir) {
  const totals = { files: 0, plain: 0, br: 0 };
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  for (const entry of entries) {
    if (!entry.isFile() || !TEXT.test(entry.name)) continue;
    const path = join(entry.parentPath, entry.name);
    const body = await readFile(path);
    if (body.byteLength < MIN_BYTES) continue;
    const br = await brotli(body, {
      params: {
        [constants.BROTLI_PARAM_QUALITY]: 11,
        [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
        [constants.BROTLI_PARAM_SIZE_HINT]: body.byteLength,
      },
    });
    await writeFile(`${path}.br`, br);
    await writeFile(`${path}.gz`, await gz(body, { level: 9 }));
    totals.files += 1;
    totals.plain += body.byteLength;
    totals.br += br.byteLength;
  }
  return totals;
}

if (process.argv[2]) {
  const { files, plain, br } = await precompress(process.argv[2]);
  console.log(`precompress: ${files} files, ${Math.round(plain / 1024)} KB -> ${Math.round(br / 1024)} KB Brotli`);
}
