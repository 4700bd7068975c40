/** What a schema sync would change, type by type and field by field. */
import { isDeepStrictEqual } from 'node:util';
import type { SchemaType } from '@cms/core';
import { canonicalJson, fieldOrderOf } from '@cms/core/schema';

export interface SchemaChange {
  type: string;
  change: 'added' | 'removed' | 'changed';
  field?: string;
  before?: unknown;
  after?: unknown;
}

const same = (a: unknown, b: unknown) => isDeepStrictEqual(JSON.parse(canonicalJson(a)), JSON.parse(canonicalJson(b)));

export function diffSchemas(server: readonly SchemaType[], local: readonly SchemaType[]): SchemaChange[] {
  const changes: SchemaChange[] = [];
  const before = new Map(server.map((t) => [t.name, t]));
  const after = new Map(local.map((t) => [t.name, t]));
  for (const type of local) {
    const old = before.get(type.name);
    if (!old) {
      changes.push({ type: type.name, change: 'added', after: type });
      continue;
    }
    for (const key of ['directory', 'localized'] as const) {
      if (old[key] !== type[key])
        changes.push({ type: type.name, change: 'changed', field: `(${key})`, before: old[key], after: type[key] });
    }
    for (const [name, field] of Object.entries(type.fields)) {
      const previous = old.fields[name];
      if (!previous) changes.push({ type: type.name, change: 'added', field: name, after: field });
      else if (!same(previous, field))
        changes.push({ type: type.name, change: 'changed', field: name, before: previous, after: field });
    }
    for (const [name, field] of Object.entries(old.fields)) {
      if (!(name in type.fields)) changes.push({ type: type.name, change: 'removed', field: name, before: field });
    }
  }
  for (const type of server)
    if (!after.has(type.name)) changes.push({ type: type.name, change: 'removed', before: type });
  return changes;
}

export function describeChange(change: SchemaChange): string {
  const sign = change.change === 'added' ? '+' : change.change === 'removed' ? '-' : '~';
  if (!change.field) return `${sign} type ${change.type}`;
  const detail =
    change.change === 'changed'
      ? `: ${JSON.stringify(change.before)} -> ${JSON.stringify(change.after)}`
      : change.change === 'added'
        ? ` (${(change.after as { kind?: string })?.kind ?? ''})`
        : '';
  return `${sign} ${change.type}.${change.field}${detail}`;
}

/** A type whose fields the config lists in another order than the server (at any depth). */
export interface FieldOrderChange {
  type: string;
  /** Top-level field names, the config's order. */
  order: string[];
  /** Top-level field names, the server's order. */
  serverOrder: string[];
}

/**
 * Types on both sides that differ in field order only (a type with field changes is synced anyway).
 * The schema hash ignores key order, so these are not schema changes: content writes are not
 * affected. But the order is what the Studio's form and new files follow, and the server keeps the
 * order it was last synced with (servers before migration 0018 sorted it), so `schema sync` sends it.
 */
export function diffFieldOrder(
  server: readonly SchemaType[],
  local: readonly SchemaType[],
  changes: readonly SchemaChange[],
): FieldOrderChange[] {
  const before = new Map(server.map((t) => [t.name, t]));
  const changed = new Set(changes.map((c) => c.type));
  const out: FieldOrderChange[] = [];
  for (const type of local) {
    const old = before.get(type.name);
    if (!old || changed.has(type.name)) continue;
    if (JSON.stringify(fieldOrderOf(old.fields)) === JSON.stringify(fieldOrderOf(type.fields))) continue;
    out.push({ type: type.name, order: Object.keys(type.fields), serverOrder: Object.keys(old.fields) });
  }
  return out;
}

export function describeFieldOrder(change: FieldOrderChange): string {
  return `~ ${change.type}: field order ${change.order.join(', ')} (server: ${change.serverOrder.join(', ')})`;
}
