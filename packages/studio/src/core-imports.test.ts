import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/**
 * `@cms/core`'s main entry builds every route contract with TypeBox when it loads: about 45 KB of
 * Brotli on every Studio page for nothing a browser needs. The Studio and the SDK (which the Studio
 * bundles) take only types from it, and values from its light entries (`@cms/core/document-title`,
 * `/errors`, `/route-table`, `/preview-url`, `/source`).
 */
const roots = ['../../studio/src', '../../sdk/src'].map((path) => fileURLToPath(new URL(path, import.meta.url)));

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sources(path);
    return /\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name) ? [path] : [];
  });
}

/** Every `import … from '@cms/core'` / `export … from '@cms/core'` statement that is not type-only. */
function valueImportsOfCoreMain(text: string): string[] {
  const statements = text.match(/^(?:import|export)\b[^;]*?from '@cms\/core';/gms) ?? [];
  return statements.filter((statement) => !/^(?:import|export) type\b/.test(statement));
}

describe('the Studio bundle', () => {
  it("takes only types from @cms/core's main entry", () => {
    const offenders = roots
      .flatMap(sources)
      .flatMap((path) =>
        valueImportsOfCoreMain(readFileSync(path, 'utf8')).map((statement) => `${path}: ${statement.split('\n')[0]}`),
      );
    expect(offenders).toEqual([]);
  });

  it("imports no other package's sources by path, only by name", () => {
    const offenders = sources(roots[0] as string).flatMap((path) =>
      [
        ...readFileSync(path, 'utf8').matchAll(/from '((?:\.\.\/)+(?:core|sdk|server|cli|astro|next)\/src\/[^']*)'/g),
      ].map((match) => `${path}: ${match[1]}`),
    );
    expect(offenders).toEqual([]);
  });

  it('notices a value import', () => {
    expect(valueImportsOfCoreMain("import { DOCUMENT_TITLE_KEYS } from '@cms/core';")).toHaveLength(1);
    expect(valueImportsOfCoreMain("import type {\n  Document,\n} from '@cms/core';")).toHaveLength(0);
    expect(valueImportsOfCoreMain("import { x } from '@cms/core/errors';")).toHaveLength(0);
  });
});
