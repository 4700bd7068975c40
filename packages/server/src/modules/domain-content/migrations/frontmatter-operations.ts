/**
 * The pure half of content migrations (docs/api.md "Content migrations"): an ordered list of
 * operations applied to one document's frontmatter. Paths are dot paths into nested objects
 * (`seo.description`); arrays are values, never traversed.
 */
import {
  type CopyOperation,
  canonicalJson,
  type MigrationOperation,
  type RemoveOperation,
  type RenameOperation,
  type SetOperation,
} from '@cms/core';

/** The operations, declared with the route (`@cms/core` migrations.routes). */
export type { CopyOperation, MigrationOperation, RemoveOperation, RenameOperation, SetOperation };

/** A document's frontmatter after the operations, or why they cannot apply to it (keyed by JSON path). */
export type OperationsOutcome =
  | { ok: true; frontmatter: Record<string, unknown>; changed: boolean }
  | { ok: false; fields: Record<string, string> };

type Json = Record<string, unknown>;

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

const FRONTMATTER = 'frontmatter';

/** `frontmatter.seo.description`: the JSON path of a dot path, as frontmatter validation names it. */
export function frontmatterPath(path: string): string {
  return `${FRONTMATTER}.${path}`;
}

/** Is `inner` the same path as `outer` or below it (`seo` and `seo.title`)? */
export function isSameOrInside(inner: string, outer: string): boolean {
  return inner === outer || inner.startsWith(`${outer}.`);
}

/** The object holding the last segment, or null when a segment on the way is absent or not an object. */
function findParent(root: Json, segments: readonly string[]): Json | null {
  let node: Json = root;
  for (const segment of segments.slice(0, -1)) {
    const child = Object.hasOwn(node, segment) ? node[segment] : undefined;
    if (!isObject(child)) return null;
    node = child;
  }
  return node;
}

/**
 * The object holding the last segment, creating absent objects on the way; a string naming the
 * first segment that holds something other than an object (it is never replaced).
 */
function ensureParent(root: Json, segments: readonly string[]): Json | string {
  let node: Json = root;
  for (const [index, segment] of segments.slice(0, -1).entries()) {
    const child = Object.hasOwn(node, segment) ? node[segment] : undefined;
    if (child === undefined) {
      const created: Json = {};
      node[segment] = created;
      node = created;
    } else if (isObject(child)) {
      node = child;
    } else {
      return segments.slice(0, index + 1).join('.');
    }
  }
  return node;
}

function lastOf(segments: readonly string[]): string {
  return segments[segments.length - 1] as string;
}

/** The value at a path, or undefined when absent. */
function read(root: Json, path: string): unknown {
  const segments = path.split('.');
  const parent = findParent(root, segments);
  const key = lastOf(segments);
  return parent && Object.hasOwn(parent, key) ? parent[key] : undefined;
}

function remove(root: Json, path: string): void {
  const segments = path.split('.');
  const parent = findParent(root, segments);
  if (parent) delete parent[lastOf(segments)];
}

/** Writes a value at a path; a message when the path cannot hold it (or is taken and may not be overwritten). */
function write(root: Json, path: string, value: unknown, overwrite: boolean): string | null {
  const segments = path.split('.');
  const parent = ensureParent(root, segments);
  if (typeof parent === 'string') return `cannot be written: ${parent} holds a value that is not an object`;
  const key = lastOf(segments);
  if (!overwrite && Object.hasOwn(parent, key) && parent[key] !== undefined) {
    return 'already has a value: remove it first, or pass overwrite: true';
  }
  // Defined as an own data property, so no name can reach a prototype.
  Object.defineProperty(parent, key, { value, writable: true, enumerable: true, configurable: true });
  return null;
}

/** Applies one operation in place; a field error when it cannot apply to this document. */
function applyOne(root: Json, operation: MigrationOperation, index: number): Record<string, string> | null {
  const fail = (path: string, message: string) => ({
    [frontmatterPath(path)]: `operations[${index}] (${operation.op}): ${message}`,
  });
  switch (operation.op) {
    case 'rename':
    case 'copy': {
      const value = read(root, operation.from);
      if (value === undefined) return null;
      const problem = write(root, operation.to, structuredClone(value), operation.overwrite === true);
      if (problem) return fail(operation.to, problem);
      if (operation.op === 'rename') remove(root, operation.from);
      return null;
    }
    case 'set': {
      if (operation.onlyIfMissing === true && read(root, operation.field) !== undefined) return null;
      const problem = write(root, operation.field, structuredClone(operation.value), true);
      return problem ? fail(operation.field, problem) : null;
    }
    case 'remove':
      remove(root, operation.field);
      return null;
  }
}

/**
 * Applies the operations in order to a copy of `frontmatter` (the input is never mutated). A
 * document an operation cannot apply to (a write through a non-object, a rename onto a taken path)
 * stops at that operation and reports it. `changed` compares canonical JSON, so key order is ignored.
 */
export function applyOperations(
  frontmatter: Record<string, unknown>,
  operations: readonly MigrationOperation[],
): OperationsOutcome {
  const result = structuredClone(frontmatter);
  for (const [index, operation] of operations.entries()) {
    const problem = applyOne(result, operation, index);
    if (problem) return { ok: false, fields: problem };
  }
  return { ok: true, frontmatter: result, changed: canonicalJson(result) !== canonicalJson(frontmatter) };
}
