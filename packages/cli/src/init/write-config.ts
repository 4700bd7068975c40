/** Writes a typed `cms.config.ts` (defineConfig, defineType, field builders) from a schema. */
import type { ArrayItems, FieldMetadata, SchemaType } from '@cms/core';

// JSON string literals are valid TypeScript and escape everything that needs it.
const q = (value: unknown) => JSON.stringify(value);
const ident = (name: string) => (/^[A-Za-z_$][A-Za-z0-9_$]*$/.test(name) ? name : q(name));

function base(kind: FieldMetadata['kind'], spec: Partial<FieldMetadata> | ArrayItems, indent: string): string {
  switch (kind) {
    case 'enum':
      return `field.enum([${(spec.values ?? []).map(q).join(', ')}])`;
    case 'reference':
      return `field.reference(${q(spec.reference?.targetType ?? '')})`;
    case 'object':
      // The nested fields one level in from the field, the closing brace under the field.
      return `field.object(${fieldMap(spec.fields ?? {}, indent)})`;
    case 'array': {
      const items = (spec as FieldMetadata).items;
      return `field.array(${items ? itemExpression(items, indent) : 'field.string()'})`;
    }
    default:
      return `field.${kind}()`;
  }
}

function checks(list: FieldMetadata['checks']): string {
  return list
    .map((c) => {
      if (c.type === 'min' || c.type === 'max') return `.${c.type}(${JSON.stringify(c.value)})`;
      if (c.type === 'regex') return `.regex(${q(c.value)})`;
      return `.${c.type}()`;
    })
    .join('');
}

function itemExpression(items: ArrayItems, indent: string): string {
  return `${base(items.kind, items, indent)}${checks(items.checks)}`;
}

export function fieldExpression(field: FieldMetadata, indent = '    '): string {
  let text = base(field.kind, field, indent) + checks(field.checks);
  if (field.required) text += '.required()';
  if (field.nullable) text += '.nullable()';
  if (field.default !== null && field.default !== undefined) text += `.default(${JSON.stringify(field.default)})`;
  return text;
}

function fieldMap(fields: Record<string, FieldMetadata>, indent: string): string {
  const entries = Object.entries(fields);
  if (entries.length === 0) return '{}';
  const inner = entries
    .map(([name, f]) => `${indent}  ${ident(name)}: ${fieldExpression(f, `${indent}  `)},`)
    .join('\n');
  return `{\n${inner}\n${indent}}`;
}

function varName(name: string, taken: Set<string>): string {
  let base = name.replace(/[^A-Za-z0-9_$]/g, '_').replace(/^(\d)/, '_$1');
  if (
    ['default', 'field', 'defineType', 'defineConfig', 'class', 'function', 'import', 'export', 'const'].includes(base)
  )
    base = `${base}Type`;
  let unique = base;
  for (let i = 2; taken.has(unique); i++) unique = `${base}${i}`;
  taken.add(unique);
  return unique;
}

export function renderConfig(options: {
  types: SchemaType[];
  locales: string[];
  localeFolders?: string[];
  markDefaultLocale?: boolean;
  project?: string | undefined;
  environment?: string | undefined;
}): string {
  const taken = new Set<string>();
  const names = options.types.map((t) => varName(t.name, taken));
  const blocks = options.types.map((type, i) => {
    const lines = [
      `export const ${names[i]} = defineType({`,
      `  name: ${q(type.name)},`,
      `  directory: ${q(type.directory)},`,
    ];
    if (type.localized) lines.push('  localized: true,');
    lines.push(`  fields: ${fieldMap(type.fields, '  ')},`, '});');
    return lines.join('\n');
  });
  const settings: string[] = [];
  if (options.project) settings.push(`  project: ${q(options.project)},`);
  if (options.environment) settings.push(`  environment: ${q(options.environment)},`);
  settings.push(`  types: [${names.join(', ')}],`);
  if (options.locales.length > 0) {
    settings.push(
      `  locales: { default: ${q(options.locales[0])}, supported: [${options.locales.map(q).join(', ')}] },`,
    );
  }
  if (options.localeFolders?.length) settings.push(`  localeFolders: [${options.localeFolders.map(q).join(', ')}],`);
  if (options.markDefaultLocale === false) settings.push('  markDefaultLocale: false,');
  return `import { defineConfig, defineType, field } from '@cms/cli';\n\n${blocks.join('\n\n')}\n\nexport default defineConfig({\n${settings.join('\n')}\n});\n`;
}
