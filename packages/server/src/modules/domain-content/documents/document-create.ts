/**
 * The checks of a document create that need no database (type, locale, path, frontmatter) and the
 * row it inserts: shared by `POST /content` and the batch's set-based creates, so both store the same.
 */
import { randomUUID } from 'node:crypto';
import { invalidInput, type SchemaType } from '@cms/core';
import type { EnvironmentContext } from '../../../http/request-context.js';
import type { NewDocument } from '../../../storage/repositories/documents.repository.js';
import { type EffectiveSchema, requireSchemaType, type SchemaReader } from '../schema/schema-reader.js';
import { sourceAfterWrite } from './document-source.js';
import { checkFrontmatter } from './document-validation.js';
import { pathProblem, resolveLocale } from './path-rules.js';

/** What a create sends, as `checkCreate` needs it. */
export interface CreateFields {
  type: string;
  path: string;
  locale?: string;
  format: 'md' | 'mdx';
  frontmatter: Record<string, unknown>;
  body: string;
  source?: string;
  localeHeader?: string | undefined;
}

/** A create that passed the checks without the database: its type, locale and frontmatter to store. */
export interface CheckedCreate {
  type: SchemaType;
  locale: string;
  frontmatter: Record<string, unknown>;
}

/**
 * Throws SCHEMA_NOT_FOUND for an unknown type, else INVALID_INPUT with path, locale and frontmatter
 * problems together; references and the translation group are checked against the database after.
 */
export function checkCreate(schemas: SchemaReader, schema: EffectiveSchema | null, input: CreateFields): CheckedCreate {
  const typed = requireSchemaType(schema, input.type);
  const { type } = typed;
  const sentLocale = input.locale ?? (type.localized ? input.localeHeader : undefined);
  const locale = resolveLocale(type.localized, type.name, sentLocale);
  const badPath = pathProblem(input.path);
  const checked = checkFrontmatter(schemas, typed, input.frontmatter);
  if (badPath || locale.locale === null || checked.value === null) {
    throw invalidInput({
      ...(badPath ? { path: badPath } : {}),
      ...(locale.problem ? { locale: locale.problem } : {}),
      ...checked.fields,
    });
  }
  return { type, locale: locale.locale, frontmatter: checked.value };
}

/** The row a checked create inserts: a new id, the group given or a new one, the source kept. */
export function newDocumentOf(
  ctx: EnvironmentContext,
  input: CreateFields,
  checked: CheckedCreate,
  options: { groupId: string | undefined; at: Date },
): NewDocument {
  return {
    id: randomUUID(),
    translationGroupId: options.groupId ?? randomUUID(),
    type: checked.type.name,
    path: input.path,
    locale: checked.locale,
    format: input.format,
    frontmatter: checked.frontmatter,
    body: input.body,
    source: sourceAfterWrite({
      sent: input.source,
      previous: null,
      frontmatter: checked.frontmatter,
      body: input.body,
      fields: checked.type.fields,
    }),
    by: ctx.principal.id,
    at: options.at,
  };
}
