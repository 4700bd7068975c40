import { readdir, readFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import * as core from '@cms/core';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

/**
 * Core's route contracts are the only wire types (docs/architecture.md "One vocabulary"): the server
 * answers `ActionResult<typeof route>` and reads `ActionInput<typeof route>`, and never declares a
 * shape of its own that restates a core schema field for field. This guard reads every exported
 * TypeBox object schema of `@cms/core` (and the object schemas nested in them), and every interface
 * and object type the server's sources declare (walked with the TypeScript compiler API), and
 * fails when a declaration's field names are exactly a core schema's.
 */

const SERVER_SRC = new URL('../../src/', import.meta.url).pathname;

/**
 * Declarations that still restate a core schema, each to be replaced by the core type. The list
 * only shrinks: an entry that no longer matches fails the test too, so it is removed with its fix.
 */
const KNOWN: readonly string[] = [];

/**
 * A repository's row (`storage/`, named `*Row`) is what SQL returns, not a wire shape, even when a
 * route answers it unchanged (STYLE.md: repositories return typed rows).
 */
function isRow(shape: DeclaredShape): boolean {
  return shape.at.startsWith('storage/') && shape.name.endsWith('Row');
}

/** A TypeBox object schema's property names, sorted and joined: the key two shapes are equal by. */
function keyOf(names: readonly string[]): string {
  return [...names].sort().join(',');
}

/** Every object schema reachable from `schema` (properties, items, unions, records). */
function collectObjectSchemas(schema: unknown, into: Map<string, string>, name: string, seen: Set<unknown>): void {
  if (!schema || typeof schema !== 'object' || seen.has(schema)) return;
  seen.add(schema);
  const node = schema as Record<string, unknown>;
  const properties = node.properties as Record<string, unknown> | undefined;
  if (node.type === 'object' && properties && typeof properties === 'object') {
    const names = Object.keys(properties);
    // One or two fields (`{ id }`, `{ deleted, id }`) say too little to call a shape a copy.
    if (names.length >= 3 && !into.has(keyOf(names))) into.set(keyOf(names), name);
    for (const [key, value] of Object.entries(properties)) collectObjectSchemas(value, into, `${name}.${key}`, seen);
  }
  for (const key of ['items', 'additionalProperties', 'patternProperties'] as const) {
    const value = node[key];
    if (value && typeof value === 'object' && !Array.isArray(value)) {
      if (key === 'patternProperties') {
        for (const inner of Object.values(value)) collectObjectSchemas(inner, into, name, seen);
      } else collectObjectSchemas(value, into, name, seen);
    }
    if (Array.isArray(value)) for (const inner of value) collectObjectSchemas(inner, into, name, seen);
  }
  for (const key of ['anyOf', 'oneOf', 'allOf'] as const) {
    const value = node[key];
    if (Array.isArray(value)) for (const inner of value) collectObjectSchemas(inner, into, name, seen);
  }
}

/** Property-name sets of every object schema `@cms/core` exports, directly or in a route contract. */
function coreShapes(): Map<string, string> {
  const shapes = new Map<string, string>();
  const seen = new Set<unknown>();
  for (const [name, value] of Object.entries(core)) {
    if (!value || typeof value !== 'object') continue;
    const route = value as { request?: Record<string, unknown>; response?: { schema?: unknown }; id?: unknown };
    if (typeof route.id === 'string' && route.request && route.response) {
      for (const [part, schema] of Object.entries(route.request))
        collectObjectSchemas(schema, shapes, `${name}.${part}`, seen);
      collectObjectSchemas(route.response.schema, shapes, `${name}.response`, seen);
    } else collectObjectSchemas(value, shapes, name, seen);
  }
  return shapes;
}

/** A declared object type: its name, where it is, and its field names. */
interface DeclaredShape {
  name: string;
  at: string;
  fields: string[];
}

function memberNames(members: ts.NodeArray<ts.TypeElement>): string[] {
  const names: string[] = [];
  for (const member of members) {
    if (!ts.isPropertySignature(member) || !member.name) continue;
    if (ts.isIdentifier(member.name) || ts.isStringLiteral(member.name)) names.push(member.name.text);
  }
  return names;
}

/** Interfaces and object type aliases declared in one source text, exported or not. */
function declaredShapes(fileName: string, text: string): DeclaredShape[] {
  const source = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, true);
  const shapes: DeclaredShape[] = [];
  const visit = (node: ts.Node) => {
    if (ts.isInterfaceDeclaration(node)) {
      shapes.push({ name: node.name.text, at: fileName, fields: memberNames(node.members) });
    } else if (ts.isTypeAliasDeclaration(node) && ts.isTypeLiteralNode(node.type)) {
      shapes.push({ name: node.name.text, at: fileName, fields: memberNames(node.type.members) });
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return shapes;
}

/** The declarations among `shapes` whose field names are exactly a core schema's. */
function copiesOfCore(shapes: readonly DeclaredShape[], core: ReadonlyMap<string, string>): string[] {
  const copies: string[] = [];
  for (const shape of shapes) {
    if (isRow(shape)) continue;
    const schema = core.get(keyOf(shape.fields));
    if (schema) copies.push(`${shape.at}: ${shape.name} restates ${schema}`);
  }
  return copies;
}

async function sourceFiles(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true });
  const nested = await Promise.all(
    entries.map((entry) => {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) return sourceFiles(path);
      const source = entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts');
      return Promise.resolve(source ? [path] : []);
    }),
  );
  return nested.flat();
}

describe('wire shapes', () => {
  const shapes = coreShapes();

  it('reads the core schemas it compares against', () => {
    // A guard that compares against nothing passes for nothing: these must be among what it reads.
    expect(shapes.get(keyOf(Object.keys(core.DocumentSchema.properties)))).toBeDefined();
    expect(shapes.get(keyOf(Object.keys(core.DeleteResultSchema.properties)))).toBeDefined();
    expect(shapes.size).toBeGreaterThan(100);
  });

  it('finds a restated core schema, whatever the field order', () => {
    const text = `
      export interface DeleteAnswer { deletedBy: string; documentId: string; isDeleted: true; deletedAt: Date }
      type Other = { documentId: string; deletedAt: Date; isDeleted: boolean; deletedBy: string };
      interface Extra { id: string; documentId: string; deletedAt: Date; isDeleted: boolean; deletedBy: string }
    `;
    const copies = copiesOfCore(declaredShapes('example.ts', text), shapes);
    expect(copies).toHaveLength(2);
    expect(copies[0]).toMatch(/^example\.ts: DeleteAnswer restates /);
    expect(copies[1]).toMatch(/^example\.ts: Other restates /);
  });

  it('the server declares no wire shape of its own: it uses the route contracts of @cms/core', async () => {
    const found: string[] = [];
    for (const file of await sourceFiles(SERVER_SRC)) {
      found.push(...copiesOfCore(declaredShapes(relative(SERVER_SRC, file), await readFile(file, 'utf8')), shapes));
    }
    const unexpected = found.filter((copy) => !isKnown(copy));
    expect(
      unexpected,
      'use the core type: ActionResult<typeof route>, ActionInput<typeof route> or the schema Static',
    ).toEqual([]);
    const stale = KNOWN.filter((key) => !found.some((copy) => copy.startsWith(`${key} restates `)));
    expect(stale, 'fixed: remove these from KNOWN').toEqual([]);
  });
});

function isKnown(copy: string): boolean {
  return KNOWN.some((key) => copy.startsWith(`${key} restates `));
}
