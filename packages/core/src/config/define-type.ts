/**
 * `defineType`: one content type of the schema config, keeping its field builders for typing.
 * @example
 * export const post = defineType({
 *   name: 'post',
 *   directory: 'posts',
 *   localized: true,
 *   fields: { title: field.string().required(), author: field.reference('author') },
 * });
 */
import type { SchemaType } from '../schema/field-types.js';
import { type FieldMap, fieldMetadataMap } from './field-builders.js';

/** What `defineType` takes. */
export interface ContentTypeInput<Name extends string, Fields extends FieldMap> {
  /** Type name: a letter, then letters, digits, `_` or `-`, 64 characters at most. */
  name: Name;
  /** Content directory of the type, relative to the project; defaults to the type name. */
  directory?: string;
  /** Whether documents have one variant per locale; defaults to false. */
  localized?: boolean;
  fields: Fields;
}

/** A content type of the config: its wire form plus the builders `InferFrontmatter` reads. */
export interface ContentType<Name extends string = string, Fields extends FieldMap = FieldMap> {
  readonly name: Name;
  readonly directory: string;
  readonly localized: boolean;
  readonly fields: Fields;
  /** The type as `resolvedSchema.types[]` carries it. */
  readonly schema: SchemaType;
}

/** Declares a content type. Structural rules are checked when the config is resolved. */
export function defineType<const Name extends string, const Fields extends FieldMap>(
  input: ContentTypeInput<Name, Fields>,
): ContentType<Name, Fields> {
  const directory = input.directory ?? input.name;
  const localized = input.localized ?? false;
  return {
    name: input.name,
    directory,
    localized,
    fields: input.fields,
    schema: { name: input.name, directory, localized, fields: fieldMetadataMap(input.fields) },
  };
}
