/**
 * The schema `cmsLoader` gives Astro (its `createSchema`): a Zod schema built from the CMS type's field
 * metadata, so each entry's `data` is checked by Astro's `parseData`, and the TypeScript of `data` that
 * Astro writes into `.astro/` for `getCollection` and `getEntry`. One function per field kind gives
 * both, so the check and the type cannot drift apart. Dates become `Date` (as `z.coerce.date()` in
 * Astro's own guides); references hold the target's entry id, or `{ collection, id }` (what Astro's
 * `reference()` gives, read by `getEntry`) for the fields `references` maps to a collection.
 */
import { type ArrayItems, type FieldCheck, type FieldMetadata, listReferenceFields, type SchemaType } from '@cms/core';
import { z } from 'astro/zod';

/** A Zod schema and the TypeScript type it parses to. */
interface Shape {
  schema: z.ZodType;
  type: string;
}

/** Field path (as `resolve` names it: `author`, `seo.author`, `related`) to the collection it points at. */
export type ReferenceCollections = Readonly<Record<string, string>>;

const quote = (value: string) => JSON.stringify(value);
const IDENTIFIER = /^[A-Za-z_$][\w$]*$/;
const key = (name: string) => (IDENTIFIER.test(name) ? name : quote(name));

function bound(checks: readonly FieldCheck[], type: 'min' | 'max'): number | undefined {
  const found = checks.find((check) => check.type === type);
  return found && 'value' in found && typeof found.value === 'number' ? found.value : undefined;
}

function stringShape(checks: readonly FieldCheck[]): Shape {
  let schema = z.string();
  const min = bound(checks, 'min');
  const max = bound(checks, 'max');
  if (min !== undefined) schema = schema.min(min);
  if (max !== undefined) schema = schema.max(max);
  for (const check of checks) {
    if (check.type === 'regex') schema = schema.regex(new RegExp(check.value, 'u'));
    if (check.type === 'url') schema = schema.url();
    if (check.type === 'email') schema = schema.email();
  }
  return { schema, type: 'string' };
}

function numberShape(checks: readonly FieldCheck[]): Shape {
  let schema = z.number();
  const min = bound(checks, 'min');
  const max = bound(checks, 'max');
  if (min !== undefined) schema = schema.min(min);
  if (max !== undefined) schema = schema.max(max);
  return { schema, type: 'number' };
}

function referenceShape(path: string, references: ReferenceCollections): Shape {
  const collection = references[path];
  if (collection === undefined) return { schema: z.string(), type: 'string' };
  return {
    schema: z.string().transform((id) => ({ collection, id })),
    type: `{ collection: ${quote(collection)}; id: string }`,
  };
}

/** The shape of one value (a field or an array's items) at `path`. */
function valueShape(spec: FieldMetadata | ArrayItems, path: string, references: ReferenceCollections): Shape {
  switch (spec.kind) {
    case 'string':
      return stringShape(spec.checks);
    case 'number':
      return numberShape(spec.checks);
    case 'boolean':
      return { schema: z.boolean(), type: 'boolean' };
    case 'date':
      return { schema: z.coerce.date(), type: 'Date' };
    case 'reference':
      return referenceShape(path, references);
    case 'enum': {
      const values = spec.values ?? [];
      if (values.length === 0) return { schema: z.never(), type: 'never' };
      return { schema: z.enum(values as [string, ...string[]]), type: values.map(quote).join(' | ') };
    }
    case 'object':
      return objectShape(spec.fields ?? {}, path, references);
    case 'array': {
      const items = (spec as FieldMetadata).items;
      const item = items ? valueShape(items, path, references) : { schema: z.unknown(), type: 'unknown' };
      let schema = z.array(item.schema);
      const min = bound(spec.checks, 'min');
      const max = bound(spec.checks, 'max');
      if (min !== undefined) schema = schema.min(min);
      if (max !== undefined) schema = schema.max(max);
      return { schema, type: `Array<${item.type}>` };
    }
  }
}

function objectShape(fields: Record<string, FieldMetadata>, path: string, references: ReferenceCollections): Shape {
  const shape: Record<string, z.ZodType> = {};
  const lines: string[] = [];
  for (const [name, field] of Object.entries(fields)) {
    const inner = valueShape(field, path ? `${path}.${name}` : name, references);
    let schema = inner.schema;
    if (field.nullable) schema = schema.nullable();
    if (!field.required) schema = schema.optional();
    shape[name] = schema;
    lines.push(`${key(name)}${field.required ? '' : '?'}: ${inner.type}${field.nullable ? ' | null' : ''};`);
  }
  return { schema: z.object(shape), type: `{ ${lines.join(' ')} }` };
}

/** What the loader adds to the frontmatter of every entry (decisions.md §8 "Astro"). */
const LOADER_FIELDS = {
  documentId: { schema: z.string(), type: 'string' },
  locale: { schema: z.string(), type: 'string' },
  version: { schema: z.number(), type: 'number' },
  updatedAt: { schema: z.string(), type: 'string' },
} satisfies Record<string, Shape>;

/** The paths `references` names that are no reference field of the type: a mistake to report. */
export function unknownReferencePaths(type: SchemaType, references: ReferenceCollections): string[] {
  const paths = new Set(listReferenceFields(type).map((field) => field.path));
  return Object.keys(references).filter((path) => !paths.has(path));
}

/** The schema and the `Entry` type module of a collection of `type`. */
export function collectionSchema(
  type: SchemaType,
  references: ReferenceCollections,
): { schema: z.ZodType; types: string } {
  const frontmatter = objectShape(type.fields, '', references);
  const extra = Object.entries(LOADER_FIELDS);
  const schema = (frontmatter.schema as z.ZodObject).extend(
    Object.fromEntries(extra.map(([name, s]) => [name, s.schema])),
  );
  const loaderType = `{ ${extra.map(([name, s]) => `${name}: ${s.type};`).join(' ')} }`;
  const types = [
    `// Generated by @cms/astro from the schema of the CMS type ${quote(type.name)}.`,
    `export type Entry = ${frontmatter.type} & ${loaderType};`,
    '',
  ].join('\n');
  return { schema, types };
}
