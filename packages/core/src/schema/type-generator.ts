/**
 * `cms types`: TypeScript declarations of a schema's content types, read by `createClient<CmsTypes>()`.
 * One interface per type (frontmatter as read: references are document id strings), enums as unions
 * of their values, arrays with `min >= 1` as non-empty tuples, the other checks as JSDoc tags, and the
 * `CmsTypes` map the SDK reads: each type's frontmatter, where its references are (dot paths, as
 * `resolve` names them) and which type they point at, and its locale. The output is deterministic:
 * the same schema gives the same bytes, so `cms types --check` can compare files.
 * @example generateTypes({ types, schemaHash, locales: { default: 'en', supported: ['en', 'fr'] } })
 */
import type { ArrayItems, FieldCheck, FieldMetadata, SchemaType } from './field-types.js';
import { listReferenceFields } from './references.js';

/** What the generator reads: `GET /schema`'s answer. */
export interface TypeGeneratorInput {
  types: readonly SchemaType[];
  schemaHash: string;
  locales?: { default: string; supported: readonly string[] } | undefined;
}

/** Names the file itself declares, which no content type's interface may take. */
const RESERVED = new Set(['CmsTypes', 'DocumentId', 'Locale', 'CMS_SCHEMA_HASH']);

const IDENTIFIER = /^[A-Za-z_$][\w$]*$/;

function pascalCase(name: string): string {
  const words = name.split(/[^A-Za-z0-9]+/).filter(Boolean);
  const joined = words.map((word) => word[0]?.toUpperCase() + word.slice(1)).join('');
  return /^[A-Za-z_$]/.test(joined) ? joined : `T${joined}`;
}

/** Interface name per type name: PascalCase, made unique (`Post`, `Post2`) and never a reserved name. */
function interfaceNames(types: readonly SchemaType[]): Map<string, string> {
  const taken = new Set(RESERVED);
  const names = new Map<string, string>();
  for (const type of types) {
    const base = pascalCase(type.name);
    let name = base;
    for (let n = 2; taken.has(name); n++) name = `${base}${n}`;
    taken.add(name);
    names.set(type.name, name);
  }
  return names;
}

const quote = (value: string): string => JSON.stringify(value);
const key = (name: string): string => (IDENTIFIER.test(name) ? name : quote(name));

/** JSDoc lines for the checks a type cannot say. */
function checkNotes(kind: string, checks: readonly FieldCheck[]): string[] {
  const notes: string[] = [];
  for (const check of checks) {
    if (check.type === 'regex') notes.push(`@pattern ${check.value.replaceAll('*/', '*\\/')}`);
    else if (check.type === 'url') notes.push('@format url');
    else if (check.type === 'email') notes.push('@format email');
    else if (kind === 'string') notes.push(`@${check.type}Length ${check.value}`);
    else if (kind === 'number') notes.push(`@${check.type}imum ${check.value}`);
    else if (kind === 'array') notes.push(`@${check.type}Items ${check.value}`);
  }
  return notes;
}

function minItems(checks: readonly FieldCheck[]): number {
  const min = checks.find((check) => check.type === 'min');
  return min && 'value' in min && typeof min.value === 'number' ? min.value : 0;
}

/** The TypeScript type of one value (a field or an array item), nested objects inline. */
function valueType(spec: FieldMetadata | ArrayItems, indent: string): string {
  switch (spec.kind) {
    case 'string':
      return 'string';
    case 'number':
      return 'number';
    case 'boolean':
      return 'boolean';
    case 'date':
      return 'string';
    case 'reference':
      return 'DocumentId';
    case 'enum':
      return (spec.values ?? []).map(quote).join(' | ') || 'never';
    case 'object':
      return objectType(spec.fields ?? {}, indent);
    case 'array': {
      const items = (spec as FieldMetadata).items;
      const item = items ? valueType(items, indent) : 'unknown';
      const wrapped = /[|&]/.test(item) && !item.startsWith('{') ? `(${item})` : item;
      return minItems(spec.checks) >= 1 ? `[${item}, ...${wrapped}[]]` : `${wrapped}[]`;
    }
  }
}

function docComment(lines: string[], indent: string): string[] {
  if (lines.length === 0) return [];
  if (lines.length === 1) return [`${indent}/** ${lines[0]} */`];
  return [`${indent}/**`, ...lines.map((line) => `${indent} * ${line}`), `${indent} */`];
}

function fieldNotes(field: FieldMetadata): string[] {
  const notes: string[] = [];
  if (field.kind === 'date') notes.push('A date (`YYYY-MM-DD`) or an ISO 8601 date-time.');
  if (field.kind === 'reference' && field.reference) notes.push(`Id of a \`${field.reference.targetType}\` document.`);
  if (field.kind === 'array' && field.items?.kind === 'reference' && field.items.reference)
    notes.push(`Ids of \`${field.items.reference.targetType}\` documents.`);
  notes.push(...checkNotes(field.kind, field.checks));
  if (field.kind === 'array' && field.items) notes.push(...checkNotes(field.items.kind, field.items.checks));
  if (field.default !== null && field.default !== undefined) notes.push(`@default ${JSON.stringify(field.default)}`);
  return notes;
}

function objectType(fields: Record<string, FieldMetadata>, indent: string): string {
  const inner = `${indent}  `;
  const lines: string[] = [];
  for (const [name, field] of Object.entries(fields)) {
    lines.push(...docComment(fieldNotes(field), inner));
    const type = valueType(field, inner) + (field.nullable ? ' | null' : '');
    lines.push(`${inner}${key(name)}${field.required ? '' : '?'}: ${type};`);
  }
  return lines.length === 0 ? 'Record<string, never>' : `{\n${lines.join('\n')}\n${indent}}`;
}

function referencesType(type: SchemaType): string {
  const refs = listReferenceFields(type);
  if (refs.length === 0) return 'Record<never, never>';
  return `{ ${refs.map((ref) => `${quote(ref.path)}: ${quote(ref.targetType)};`).join(' ')} }`;
}

/** The declarations of a schema as one TypeScript file (no imports; passes `tsc --strict`). */
export function generateTypes(input: TypeGeneratorInput): string {
  const types = [...input.types].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  const names = interfaceNames(types);
  const locales = input.locales
    ? [input.locales.default, ...input.locales.supported.filter((locale) => locale !== input.locales?.default)]
    : [];
  const out: string[] = [
    '// Generated by `cms types` from the server schema. Do not edit: run `cms types` again after `cms schema sync`.',
    '',
    '/** Hash of the schema these types were generated from. */',
    `export const CMS_SCHEMA_HASH = ${quote(input.schemaHash)};`,
    '',
    '/** A document id. `resolve` on a read puts the referenced document in its place. */',
    'export type DocumentId = string;',
    '',
    '/** Locales of the project, the default first. */',
    `export type Locale = ${locales.map(quote).join(' | ') || 'string'};`,
  ];
  for (const type of types) {
    const name = names.get(type.name) as string;
    const where = `directory \`${type.directory}\`${type.localized ? ', one variant per locale' : ''}`;
    out.push('', `/** Frontmatter of \`${type.name}\` documents (${where}). */`);
    const body = objectType(type.fields, '');
    out.push(body.startsWith('{') ? `export interface ${name} ${body}` : `export type ${name} = ${body};`);
  }
  out.push(
    '',
    '/** Every content type: `createClient<CmsTypes>()` types `content.list/get/iterate` by `type`. */',
    'export type CmsTypes = {',
  );
  for (const type of types) {
    out.push(
      `  ${key(type.name)}: {`,
      `    frontmatter: ${names.get(type.name)};`,
      `    references: ${referencesType(type)};`,
      `    localized: ${type.localized};`,
      `    locale: ${type.localized ? 'Locale' : 'string'};`,
      '  };',
    );
  }
  out.push('};', '');
  return out.join('\n');
}
