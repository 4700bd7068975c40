/**
 * Wire types of the schema registry (spec/interface.md "Schema type", "Field metadata").
 *
 * A resolved schema is fully explicit: every field carries all of `kind`, `required`, `nullable`,
 * `default`, `reference` and `checks`, so that the hash of the same schema never depends on which
 * optional keys a client chose to write out.
 */

/** Every field kind a schema may use. */
export const FIELD_KINDS = ['string', 'number', 'boolean', 'date', 'array', 'object', 'reference', 'enum'] as const;

/** The kind of a field: what JSON value it holds. */
export type FieldKind = (typeof FIELD_KINDS)[number];

/**
 * A constraint on a field value.
 *
 * `min`/`max` mean: for `string`, length in Unicode code points (as JSON Schema's
 * `minLength`/`maxLength`); for `number`, the value (inclusive); for `array`, the item count.
 * They are not allowed on any other kind: on `date` they are rejected at schema sync rather than
 * silently ignored, so nobody believes a date range is enforced when it is not.
 * `regex` is an ECMAScript pattern compiled with the `u` flag and matched anywhere in the string
 * (anchor it with `^...$` to match the whole value), like JSON Schema's `pattern`.
 * `url` and `email` apply to `string` only.
 */
export type FieldCheck =
  | { type: 'min'; value: number }
  | { type: 'max'; value: number }
  | { type: 'regex'; value: string }
  | { type: 'url' }
  | { type: 'email' };

/** The type of a check: `min`, `max`, `regex`, `url` or `email`. */
export type FieldCheckType = FieldCheck['type'];

/** The target of a reference field: the content type the referenced document must have. */
export interface FieldReference {
  targetType: string;
}

/**
 * What each item of an `array` field holds. Arrays of arrays are not supported: wrap the inner
 * array in an object. Items are never null.
 */
export interface ArrayItems {
  kind: Exclude<FieldKind, 'array'>;
  checks: FieldCheck[];
  /** For `reference` items. */
  reference?: FieldReference | null;
  /** For `object` items: the nested field map. */
  fields?: Record<string, FieldMetadata>;
  /** For `enum` items: the allowed values. */
  values?: string[];
}

/** Metadata of one frontmatter field. */
export interface FieldMetadata {
  kind: FieldKind;
  /** The field must be present in frontmatter (after its default is applied). */
  required: boolean;
  /** The field accepts `null`. */
  nullable: boolean;
  /** Applied when the field is omitted; `null` means no default. */
  default: unknown;
  /** `{ targetType }` for `reference` fields, else `null`. */
  reference: FieldReference | null;
  checks: FieldCheck[];
  /** For `array` fields only. */
  items?: ArrayItems;
  /** For `object` fields only: the nested field map. */
  fields?: Record<string, FieldMetadata>;
  /** For `enum` fields only: the allowed values, non-empty and unique. */
  values?: string[];
}

/** A content type of the registry. */
export interface SchemaType {
  name: string;
  /** Content directory of the type. */
  directory: string;
  localized: boolean;
  fields: Record<string, FieldMetadata>;
}

/** The schema pushed by `PUT /schema/sync` as `resolvedSchema`; its hash guards content writes. */
export interface ResolvedSchema {
  types: SchemaType[];
}
