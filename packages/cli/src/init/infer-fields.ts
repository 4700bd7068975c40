/**
 * `cms init` fields: the field map that fits every frontmatter object of a type, in the key order
 * most files use (not the first file's).
 */
import type { FieldMetadata } from '@cms/core';

const DATE = /^\d{4}-\d{2}-\d{2}([T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?)?$/;
const FIELD = /^[a-zA-Z][a-zA-Z0-9_-]{0,63}$/;

type Kind = FieldMetadata['kind'];

function kindOf(value: unknown): Kind | undefined {
  if (typeof value === 'boolean') return 'boolean';
  if (typeof value === 'number') return 'number';
  if (typeof value === 'string') return DATE.test(value) ? 'date' : 'string';
  if (Array.isArray(value)) return 'array';
  if (value && typeof value === 'object') return 'object';
  return undefined;
}

function empty(kind: Kind): FieldMetadata {
  return { kind, required: false, nullable: false, default: null, reference: null, checks: [] };
}

/**
 * The keys of all objects in the order most of them use: a key comes before another when more
 * objects that hold both put it first (ties: the earlier mean position, then first appearance).
 */
export function majorityKeyOrder(objects: ReadonlyArray<Record<string, unknown>>): string[] {
  const first: string[] = [];
  const seen = new Set<string>();
  const positionSum = new Map<string, number>();
  const count = new Map<string, number>();
  for (const object of objects) {
    const keys = Object.keys(object);
    keys.forEach((key, i) => {
      if (!seen.has(key)) {
        seen.add(key);
        first.push(key);
      }
      positionSum.set(key, (positionSum.get(key) ?? 0) + i / Math.max(1, keys.length - 1));
      count.set(key, (count.get(key) ?? 0) + 1);
    });
  }
  if (first.length < 2) return first;
  const index = new Map(first.map((k, i) => [k, i]));
  // before[a * n + b]: objects in which key a comes before key b.
  const n = first.length;
  const before = new Uint32Array(n * n);
  for (const object of objects) {
    const keys = Object.keys(object).map((k) => index.get(k) ?? 0);
    for (let i = 0; i < keys.length; i++)
      for (let j = i + 1; j < keys.length; j++) {
        const cell = (keys[i] ?? 0) * n + (keys[j] ?? 0);
        before[cell] = (before[cell] ?? 0) + 1;
      }
  }
  const at = (a: number, b: number) => before[a * n + b] ?? 0;
  const wins = first.map((_, a) => first.reduce((sum, _k, b) => sum + (a !== b && at(a, b) > at(b, a) ? 1 : 0), 0));
  const mean = (k: string) => (positionSum.get(k) ?? 0) / (count.get(k) ?? 1);
  return [...first].sort(
    (a, b) =>
      (wins[index.get(b) ?? 0] ?? 0) - (wins[index.get(a) ?? 0] ?? 0) ||
      mean(a) - mean(b) ||
      (index.get(a) as number) - (index.get(b) as number),
  );
}

/** The field map that fits every given frontmatter object; fields of conflicting kinds are left out. */
export function inferFields(objects: Array<Record<string, unknown>>, depth = 1): Record<string, FieldMetadata> {
  const fields: Record<string, FieldMetadata> = {};
  for (const key of majorityKeyOrder(objects)) {
    if (!FIELD.test(key)) continue;
    const values = objects.map((o) => o[key]);
    const present = values.filter((v) => v !== undefined && v !== null);
    const kinds = new Set(present.map(kindOf));
    if (kinds.size === 2 && kinds.has('date') && kinds.has('string')) kinds.delete('date');
    if (kinds.size !== 1) continue;
    const kind = [...kinds][0] as Kind;
    let field = empty(kind);
    if (kind === 'array') {
      const items = present.flat() as unknown[];
      const itemKinds = new Set(items.filter((v) => v !== null).map(kindOf));
      if (itemKinds.size === 2 && itemKinds.has('date') && itemKinds.has('string')) itemKinds.delete('date');
      const itemKind = itemKinds.size === 1 ? ([...itemKinds][0] as Kind) : 'string';
      if (itemKind === 'array' || (itemKind === 'object' && depth >= 4)) continue;
      field = {
        ...field,
        items:
          itemKind === 'object'
            ? { kind: 'object', checks: [], fields: inferFields(items as Array<Record<string, unknown>>, depth + 1) }
            : { kind: itemKind, checks: [] },
      };
    } else if (kind === 'object') {
      if (depth >= 4) continue;
      field = { ...field, fields: inferFields(present as Array<Record<string, unknown>>, depth + 1) };
    }
    field.required = values.every((v) => v !== undefined && v !== null);
    field.nullable = values.some((v) => v === null);
    fields[key] = field;
  }
  return fields;
}
