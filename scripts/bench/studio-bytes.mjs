/**
 * The Studio-bytes row of `npm run bench` (issue #33 "Bytes"): the JavaScript a Studio page loads, from
 * the build in `packages/studio/dist` (`npm run build -w @cms/studio`), Brotli and gzip as the server
 * sends them (the build's precompressed `.br`/`.gz`; a file too small to have them is compressed here
 * the same way). A page loads the entry (`index.html`'s script) with its static imports, and the lazy
 * chunks that hold the modules it opens, each with their static imports. Chunks are found by the source
 * modules their source maps name, so the row does not depend on hashed file names.
 *
 *   node scripts/bench/studio-bytes.mjs     # prints one JSON line and the table
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';

const DIST = fileURLToPath(new URL('../../packages/studio/dist/', import.meta.url));
const ASSETS = join(DIST, 'assets');

/** Pages, the Studio source modules each opens beyond the entry, and the budget (KB of Brotli). */
export const STUDIO_PAGES = [
  { page: 'dashboard', modules: ['src/extensions/first-party/recent-changes.tsx'], budgetKb: 150 },
  {
    page: 'editor, Markdown document (CodeMirror, preview)',
    modules: [
      'src/pages/editor-page.tsx',
      'src/editor/codemirror-editor.tsx',
      'src/editor/markdown-pipeline.ts',
      'src/extensions/first-party/history-link.tsx',
      'src/extensions/first-party/preview-links.tsx',
      'src/extensions/first-party/release-actions.tsx',
      'src/extensions/first-party/publish-with-summary.tsx',
      'src/extensions/first-party/media-body-insert.tsx',
      'src/extensions/first-party/document-activity.tsx',
    ],
    budgetKb: 350,
  },
  {
    page: 'editor, MDX document (plus the MDX check)',
    extends: 1,
    modules: ['src/editor/mdx-check.ts'],
    budgetKb: 350,
  },
];

const STATIC_IMPORT = /(?:^|[;}\n])\s*(?:import|export)\s*(?:[\w$\s{},*]*?\bfrom\s*)?["']\.\/([^"']+\.js)["']/g;

function chunkGraph() {
  const files = readdirSync(ASSETS).filter((name) => name.endsWith('.js'));
  const imports = new Map();
  const chunkOfModule = new Map();
  for (const file of files) {
    const text = readFileSync(join(ASSETS, file), 'utf8');
    imports.set(
      file,
      [...text.matchAll(STATIC_IMPORT)].map((match) => match[1]),
    );
    const map = join(ASSETS, `${file}.map`);
    if (!existsSync(map)) continue;
    for (const source of JSON.parse(readFileSync(map, 'utf8')).sources) {
      // `../../src/editor/mdx-check.ts`: the Studio's own sources (other packages' are `../../../sdk/src/…`).
      const own = /^(?:\.\.\/)*(src\/.*)$/.exec(source);
      if (own?.[1]) chunkOfModule.set(own[1], file);
    }
  }
  const html = readFileSync(join(DIST, 'index.html'), 'utf8');
  const entry = /<script[^>]+src="[^"]*\/assets\/([^"]+\.js)"/.exec(html)?.[1];
  if (!entry) throw new Error('index.html names no entry script: is packages/studio/dist a Vite build?');
  return { imports, chunkOfModule, entry };
}

function closure(graph, starts) {
  const seen = new Set();
  const stack = [...starts];
  while (stack.length > 0) {
    const file = stack.pop();
    if (seen.has(file)) continue;
    seen.add(file);
    stack.push(...(graph.imports.get(file) ?? []));
  }
  return seen;
}

function compressedSizes(file) {
  const path = join(ASSETS, file);
  const plain = readFileSync(path);
  const br = existsSync(`${path}.br`)
    ? readFileSync(`${path}.br`).byteLength
    : brotliCompressSync(plain, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }).byteLength;
  const gz = existsSync(`${path}.gz`)
    ? readFileSync(`${path}.gz`).byteLength
    : gzipSync(plain, { level: 9 }).byteLength;
  return { plain: plain.byteLength, br, gz };
}

export function runStudioBytes() {
  if (!existsSync(join(DIST, 'index.html')))
    throw new Error('the Studio is not built: run npm run build -w @cms/studio');
  const graph = chunkGraph();
  const modulesOf = (page) => [
    ...(page.extends === undefined ? [] : modulesOf(STUDIO_PAGES[page.extends])),
    ...page.modules,
  ];
  const rows = STUDIO_PAGES.map((page) => {
    const starts = [graph.entry];
    for (const module of modulesOf(page)) {
      const chunk = graph.chunkOfModule.get(module);
      if (!chunk) throw new Error(`no chunk of the build holds ${module}: update STUDIO_PAGES`);
      starts.push(chunk);
    }
    const files = [...closure(graph, starts)];
    const totals = files
      .map(compressedSizes)
      .reduce((sum, sizes) => ({ plain: sum.plain + sizes.plain, br: sum.br + sizes.br, gz: sum.gz + sizes.gz }), {
        plain: 0,
        br: 0,
        gz: 0,
      });
    return {
      page: page.page,
      files: files.length,
      ...totals,
      budgetBytes: page.budgetKb * 1000,
      met: totals.br <= page.budgetKb * 1000,
    };
  });
  return { rows };
}

export function renderStudioBytes(result) {
  if (result.error) return `### Studio JavaScript per page\n\nfailed: ${result.error}\n`;
  const kb = (bytes) => `${Math.round(bytes / 1000).toLocaleString('en')} KB`;
  return [
    '### Studio JavaScript per page (from the build; the entry, its static imports and the lazy chunks the page opens)',
    '',
    '| page | files | plain | Brotli | gzip | target (Brotli) | met |',
    '|---|---:|---:|---:|---:|---:|---|',
    ...result.rows.map(
      (row) =>
        `| ${row.page} | ${row.files} | ${kb(row.plain)} | ${kb(row.br)} | ${kb(row.gz)} | ${kb(row.budgetBytes)} | ${row.met ? 'yes' : 'no'} |`,
    ),
    '',
  ].join('\n');
}

if (import.meta.url === `file://${process.argv[1]}`) {
  try {
    const result = runStudioBytes();
    process.stdout.write(`${JSON.stringify(result)}\n${renderStudioBytes(result)}\n`);
  } catch (error) {
    process.stderr.write(`[studio-bytes] ${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  }
}
