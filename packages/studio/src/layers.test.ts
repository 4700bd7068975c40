import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/**
 * The Studio's layers (docs/studio.md "Layers"): each file imports only from its own layer or the ones
 * below, and no files import each other in a circle. Every import counts: type-only ones (a type from
 * above ties a file to what is above just the same) and `import()` of a lazy chunk (a registry lists what
 * it loads lazily and is imported by none of them).
 */
const LAYERS: readonly (readonly [string, readonly string[]])[] = [
  // The router's helpers and types, the API, and the extension registry's contracts.
  ['contracts', ['api/', 'routing/navigation.tsx', 'extensions/props.ts', 'extensions/registry.ts']],
  ['ui', ['ui/']],
  ['data', ['state/', 'extensions/']],
  ['editor', ['editor/']],
  ['pages', ['pages/', 'extensions/first-party/']],
  ['routes', ['routing/', 'extensions/components.ts']],
  ['app', ['app.tsx', 'main.tsx']],
];

const root = fileURLToPath(new URL('.', import.meta.url));

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sources(path);
    return /\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name) ? [relative(root, path)] : [];
  });
}

/** The Studio files a file imports, statically or lazily, with or without `type`. */
function importsOf(file: string): string[] {
  const text = readFileSync(join(root, file), 'utf8');
  const specifiers = [
    ...[...text.matchAll(/^(?:import|export)\b[^;]*?\bfrom\s+'(\.[^']+)'/gms)].map((match) => match[1] as string),
    ...[...text.matchAll(/\bimport\(\s*'(\.[^']+)'\s*\)/g)].map((match) => match[1] as string),
  ];
  return specifiers.flatMap((specifier) => {
    const base = resolve(dirname(join(root, file)), specifier.replace(/\.js$/, ''));
    const found = [`${base}.ts`, `${base}.tsx`, join(base, 'index.ts')].find((candidate) => existsSync(candidate));
    return found ? [relative(root, found)] : [];
  });
}

/** The layer of a file: its longest matching prefix in `LAYERS`. */
function layerOf(file: string): number {
  let best = -1;
  let bestLength = -1;
  LAYERS.forEach(([, prefixes], index) => {
    for (const prefix of prefixes) {
      if ((file === prefix || file.startsWith(prefix)) && prefix.length > bestLength) {
        best = index;
        bestLength = prefix.length;
      }
    }
  });
  return best;
}

/** Strongly connected groups of more than one file (Tarjan), each as its sorted files joined by ` -> `. */
function circles(graph: Map<string, string[]>): string[] {
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[] = [];
  const visit = (node: string) => {
    index.set(node, next);
    low.set(node, next);
    next += 1;
    stack.push(node);
    onStack.add(node);
    for (const target of graph.get(node) ?? []) {
      if (!index.has(target)) {
        visit(target);
        low.set(node, Math.min(low.get(node) as number, low.get(target) as number));
      } else if (onStack.has(target)) {
        low.set(node, Math.min(low.get(node) as number, index.get(target) as number));
      }
    }
    if (low.get(node) !== index.get(node)) return;
    const group: string[] = [];
    let member: string;
    do {
      member = stack.pop() as string;
      onStack.delete(member);
      group.push(member);
    } while (member !== node);
    if (group.length > 1) found.push(group.sort().join(' -> '));
  };
  for (const node of graph.keys()) if (!index.has(node)) visit(node);
  return found.sort();
}

describe('the Studio layers', () => {
  const files = sources(root);
  const graph = new Map(files.map((file) => [file, importsOf(file)]));

  it('puts every file in a layer', () => {
    expect(files.filter((file) => layerOf(file) < 0)).toEqual([]);
  });

  it('imports only from the same layer or below', () => {
    const upward = [...graph].flatMap(([file, targets]) =>
      targets
        .filter((target) => layerOf(target) > layerOf(file))
        .map((target) => `${file} (${LAYERS[layerOf(file)]?.[0]}) imports ${target} (${LAYERS[layerOf(target)]?.[0]})`),
    );
    expect(upward).toEqual([]);
  });

  it('has no import circle', () => {
    expect(circles(graph)).toEqual([]);
  });

  it('finds a circle through a type import and a lazy import', () => {
    const graph = new Map([
      ['a.ts', ['b.ts']],
      ['b.ts', ['c.ts']],
      ['c.ts', ['a.ts']],
      ['d.ts', ['a.ts']],
    ]);
    expect(circles(graph)).toEqual(['a.ts -> b.ts -> c.ts']);
    expect(importsOf('routing/routes.tsx')).toContain('pages/editor-page.tsx');
  });
});
