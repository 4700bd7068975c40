import { readdir, readFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

const MODULES = new URL('../../src/modules/', import.meta.url).pathname;

async function sourceFiles(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true });
  const nested = await Promise.all(
    entries.map((entry) => {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) return sourceFiles(path);
      return Promise.resolve(entry.name.endsWith('.ts') ? [path] : []);
    }),
  );
  return nested.flat();
}

/** Every relative import of a file, as written. */
function importsOf(source: string): string[] {
  return [...source.matchAll(/from\s+'(\.[^']+)'/g)].map((match) => match[1] as string);
}

describe('module boundaries', () => {
  it('modules meet only through the registry: no module imports a file of another', async () => {
    const modules = ['core-system', 'domain-content'];
    const crossings: string[] = [];
    for (const module of modules) {
      for (const file of await sourceFiles(join(MODULES, module))) {
        const source = await readFile(file, 'utf8');
        for (const specifier of importsOf(source)) {
          const target = relative(MODULES, join(file, '..', specifier));
          const other = modules.find((name) => name !== module && target.startsWith(`${name}/`));
          if (other) crossings.push(`${relative(MODULES, file)} -> ${target}`);
        }
      }
    }
    expect(crossings).toEqual([]);
  });
});
