/**
 * Flags of a module alias from its action's request schema (`inputMode: 'flags'`): each path
 * parameter a positional argument, each query or body property a `--kebab-case` option whose
 * value is read by the property's JSON schema type (numbers, `null`, JSON for objects, lists).
 */
import type { Command } from 'commander';
import { usageError } from './exit-codes.js';

type JsonSchema = { type?: string | string[]; anyOf?: JsonSchema[]; items?: JsonSchema; default?: unknown } & Record<
  string,
  unknown
>;
type ObjectSchema = { properties?: Record<string, JsonSchema>; required?: string[] };

/** The request parts an alias reads (a route contract's `request`, as JSON schema). */
export interface RequestParts {
  params?: ObjectSchema;
  query?: ObjectSchema;
  body?: ObjectSchema;
}

const kebab = (name: string) => name.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);

function typesOf(schema: JsonSchema): string[] {
  if (Array.isArray(schema.type)) return schema.type;
  if (typeof schema.type === 'string') return [schema.type];
  return (schema.anyOf ?? []).flatMap(typesOf);
}

/**
 * The option's term and help line for one property: what it does (the alias's `options`, else the
 * schema's description, else its name), then what it takes, as the schema says.
 */
function optionOf(name: string, schema: JsonSchema, described: string | undefined): { term: string; help: string } {
  const types = typesOf(schema).filter((t) => t !== 'null');
  const nullable = typesOf(schema).includes('null');
  const flag = `--${kebab(name)}`;
  const what = described ?? (typeof schema.description === 'string' ? schema.description : name);
  const orNull = nullable && !/\bnull\b/.test(what) ? ', or null' : '';
  const def = schema.default !== undefined ? ` (default ${JSON.stringify(schema.default)})` : '';
  const main = types[0] ?? 'string';
  if (main === 'boolean') return { term: flag, help: `${what}${def}` };
  if (main === 'array' && typesOf(schema.items ?? {}).every((t) => t === 'string' || t === 'integer'))
    return { term: `${flag} <values...>`, help: `${what}: one or more values${def}` };
  if (main === 'object' || main === 'array') return { term: `${flag} <json>`, help: `${what} (JSON${orNull})${def}` };
  if (main === 'integer' || main === 'number')
    return { term: `${flag} <n>`, help: `${what} (a number${orNull})${def}` };
  const choices = Array.isArray(schema.enum) ? `: ${(schema.enum as unknown[]).join(', ')}` : '';
  return { term: `${flag} <value>`, help: `${what}${choices}${orNull ? ` (${orNull.slice(2)})` : ''}${def}` };
}

/** Adds the alias's arguments and options to its command, each with what it does (`options`). */
export function defineAliasFlags(
  command: Command,
  parts: RequestParts,
  inputMode: string,
  options: Readonly<Record<string, string>> = {},
): void {
  for (const name of Object.keys(parts.params?.properties ?? {})) command.argument(`<${name}>`, options[name] ?? name);
  if (inputMode === 'file') {
    command.argument('<file>', options.file ?? 'JSON file with the request body');
    // A body with `dryRun` (a content migration): `--dry-run` asks for the plan only.
    if (parts.body?.properties?.dryRun)
      command.option('--dry-run', options.dryRun ?? 'show what would change; change nothing');
  }
  if (inputMode !== 'flags') return;
  for (const part of [parts.query, parts.body]) {
    const required = new Set(part?.required ?? []);
    for (const [name, schema] of Object.entries(part?.properties ?? {})) {
      const { term, help } = optionOf(name, schema, options[name]);
      // A required property that may be null is sent as null when its flag is left out.
      if (required.has(name) && !typesOf(schema).includes('null')) command.requiredOption(term, help);
      else command.option(term, help);
    }
  }
}

/** A flag's value read as its property's type. */
function flagValue(name: string, schema: JsonSchema, raw: unknown): unknown {
  const types = typesOf(schema);
  if (raw === 'null' && types.includes('null')) return null;
  if (typeof raw !== 'string') return raw;
  const main = types.find((t) => t !== 'null') ?? 'string';
  if (main === 'integer' || main === 'number') {
    const value = Number(raw);
    if (raw.trim() === '' || Number.isNaN(value)) {
      throw usageError(`--${kebab(name)} must be a number${types.includes('null') ? ' or null' : ''}, not "${raw}".`);
    }
    return value;
  }
  if (main === 'object' || main === 'array') {
    try {
      return JSON.parse(raw);
    } catch (error) {
      throw usageError(
        `--${kebab(name)} must be JSON: ${(error as Error).message}`,
        `For example --${kebab(name)} '{}'.`,
      );
    }
  }
  return raw;
}

/** The query and body of a `flags` alias from the parsed options (left-out nullable required: null). */
export function requestFromFlags(
  parts: RequestParts,
  options: Record<string, unknown>,
): { query?: Record<string, unknown>; body?: Record<string, unknown> } {
  const read = (part: ObjectSchema | undefined, fillNull: boolean) => {
    if (!part) return undefined;
    const out: Record<string, unknown> = {};
    const required = new Set(part.required ?? []);
    for (const [name, schema] of Object.entries(part.properties ?? {})) {
      const raw = options[name];
      if (raw !== undefined) out[name] = flagValue(name, schema, raw);
      else if (fillNull && required.has(name) && typesOf(schema).includes('null')) out[name] = null;
    }
    return out;
  };
  const query = read(parts.query, false);
  const body = read(parts.body, true);
  return { ...(query ? { query } : {}), ...(body ? { body } : {}) };
}
