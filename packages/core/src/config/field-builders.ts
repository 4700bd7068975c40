/**
 * Field builders of the schema config DSL (`cms.config.ts`): each call yields the field's wire
 * metadata (spec "Field metadata", fully explicit) and, at the type level, the value it holds, so
 * `InferFrontmatter` can type documents of a `defineType` without a second declaration.
 * Builders are immutable: every modifier returns a new builder.
 * @example
 * const title = field.string().required().max(120);
 * const author = field.reference('author');
 * const tags = field.array(field.string()).max(10);
 */
import type { ArrayItems, FieldCheck, FieldKind, FieldMetadata } from '../schema/field-types.js';

/** Marks a reference field's value: a document id string, or a resolved object when resolved. */
export interface ReferenceValue<Target> {
  readonly __reference: Target;
}

/** What every builder has: its wire metadata and the modifiers shared by all kinds. */
export interface FieldBuilder<Value = unknown, Req extends boolean = boolean, Null extends boolean = boolean> {
  /** The field's metadata, as `resolvedSchema` carries it. */
  readonly metadata: FieldMetadata;
  /** Type-level only: the value this field holds. */
  readonly __value?: Value;
  readonly __required?: Req;
  readonly __nullable?: Null;
}

// The modifiers every kind has, returning the same kind of builder (`B<R, N>`): spelled out per
// kind below, as TypeScript has no higher-kinded types.
//   required(): the field must be present (after its default is applied);
//   optional(): the field may be omitted (the default);
//   nullable(): the field accepts `null`;
//   default(v): applied by the server when the field is omitted, so read documents always carry it.

/** A boolean or date field: only the shared modifiers. */
export interface PlainFieldBuilder<Value, Req extends boolean = false, Null extends boolean = false>
  extends FieldBuilder<Value, Req, Null> {
  readonly kind: 'boolean' | 'date';
  required(): PlainFieldBuilder<Value, true, Null>;
  optional(): PlainFieldBuilder<Value, false, Null>;
  nullable(): PlainFieldBuilder<Value, Req, true>;
  default(value: Value): PlainFieldBuilder<Value, true, Null>;
}

/** A string field: length in code points (`min`/`max`), `regex`, `url`, `email`. */
export interface StringFieldBuilder<
  Value extends string = string,
  Req extends boolean = false,
  Null extends boolean = false,
> extends FieldBuilder<Value, Req, Null> {
  readonly kind: 'string';
  required(): StringFieldBuilder<Value, true, Null>;
  optional(): StringFieldBuilder<Value, false, Null>;
  nullable(): StringFieldBuilder<Value, Req, true>;
  default(value: Value): StringFieldBuilder<Value, true, Null>;

  min(length: number): StringFieldBuilder<Value, Req, Null>;
  max(length: number): StringFieldBuilder<Value, Req, Null>;
  /** An ECMAScript pattern compiled with the `u` flag, matched anywhere (anchor with `^...$`). */
  regex(pattern: string | RegExp): StringFieldBuilder<Value, Req, Null>;
  url(): StringFieldBuilder<Value, Req, Null>;
  email(): StringFieldBuilder<Value, Req, Null>;
}

/** A number field: inclusive `min`/`max`. */
export interface NumberFieldBuilder<Req extends boolean = false, Null extends boolean = false>
  extends FieldBuilder<number, Req, Null> {
  readonly kind: 'number';
  required(): NumberFieldBuilder<true, Null>;
  optional(): NumberFieldBuilder<false, Null>;
  nullable(): NumberFieldBuilder<Req, true>;
  default(value: number): NumberFieldBuilder<true, Null>;

  min(value: number): NumberFieldBuilder<Req, Null>;
  max(value: number): NumberFieldBuilder<Req, Null>;
}

/** An enum field: one of `values`. */
export interface EnumFieldBuilder<Value extends string, Req extends boolean = false, Null extends boolean = false>
  extends FieldBuilder<Value, Req, Null> {
  readonly kind: 'enum';
  required(): EnumFieldBuilder<Value, true, Null>;
  optional(): EnumFieldBuilder<Value, false, Null>;
  nullable(): EnumFieldBuilder<Value, Req, true>;
  default(value: Value): EnumFieldBuilder<Value, true, Null>;
}

/** An array field: item count `min`/`max`. */
export interface ArrayFieldBuilder<Item extends FieldBuilder, Req extends boolean = false, Null extends boolean = false>
  extends FieldBuilder<Item[], Req, Null> {
  readonly kind: 'array';
  required(): ArrayFieldBuilder<Item, true, Null>;
  optional(): ArrayFieldBuilder<Item, false, Null>;
  nullable(): ArrayFieldBuilder<Item, Req, true>;
  default(value: unknown[]): ArrayFieldBuilder<Item, true, Null>;

  readonly items: Item;
  min(count: number): ArrayFieldBuilder<Item, Req, Null>;
  max(count: number): ArrayFieldBuilder<Item, Req, Null>;
}

/** A field map: field name to builder. */
export type FieldMap = Record<string, FieldBuilder>;

/** An object field holding a nested field map. */
export interface ObjectFieldBuilder<Fields extends FieldMap, Req extends boolean = false, Null extends boolean = false>
  extends FieldBuilder<Fields, Req, Null> {
  readonly kind: 'object';
  required(): ObjectFieldBuilder<Fields, true, Null>;
  optional(): ObjectFieldBuilder<Fields, false, Null>;
  nullable(): ObjectFieldBuilder<Fields, Req, true>;
  default(value: Record<string, unknown>): ObjectFieldBuilder<Fields, true, Null>;

  readonly fields: Fields;
}

/** A reference field: a document id of `Target` (a type name, or the type itself when given). */
export interface ReferenceFieldBuilder<Target, Req extends boolean = false, Null extends boolean = false>
  extends FieldBuilder<ReferenceValue<Target>, Req, Null> {
  readonly kind: 'reference';
  required(): ReferenceFieldBuilder<Target, true, Null>;
  optional(): ReferenceFieldBuilder<Target, false, Null>;
  nullable(): ReferenceFieldBuilder<Target, Req, true>;
  default(value: string): ReferenceFieldBuilder<Target, true, Null>;
}

function emptyMetadata(kind: FieldKind): FieldMetadata {
  return { kind, required: false, nullable: false, default: null, reference: null, checks: [] };
}

// One runtime implementation for every kind; the interfaces above say which methods each exposes.
function build<B>(metadata: FieldMetadata, extra: Record<string, unknown> = {}): B {
  const next = (change: Partial<FieldMetadata>) => build<unknown>({ ...metadata, ...change }, extra);
  const check = (added: FieldCheck) => next({ checks: [...metadata.checks, added] });
  return {
    ...extra,
    kind: metadata.kind,
    metadata,
    required: () => next({ required: true }),
    optional: () => next({ required: false }),
    nullable: () => next({ nullable: true }),
    default: (value: unknown) => next({ default: value }),
    min: (value: number) => check({ type: 'min', value }),
    max: (value: number) => check({ type: 'max', value }),
    regex: (pattern: string | RegExp) =>
      check({ type: 'regex', value: typeof pattern === 'string' ? pattern : pattern.source }),
    url: () => check({ type: 'url' }),
    email: () => check({ type: 'email' }),
  } as B;
}

function toItems(item: FieldBuilder): ArrayItems {
  const { kind, checks, reference, fields, values } = item.metadata;
  if (kind === 'array') throw new TypeError('Arrays of arrays are not supported: wrap the inner array in an object.');
  return {
    kind,
    checks,
    ...(reference ? { reference } : {}),
    ...(fields ? { fields } : {}),
    ...(values ? { values } : {}),
  };
}

function fieldMetadataMap(fields: FieldMap): Record<string, FieldMetadata> {
  return Object.fromEntries(Object.entries(fields).map(([name, builder]) => [name, builder.metadata]));
}

/** A content type as `defineType` returns it, or just its name. */
export interface NamedType {
  readonly name: string;
}

/** The field builders, one per kind. */
export const field = {
  string: (): StringFieldBuilder => build(emptyMetadata('string')),
  number: (): NumberFieldBuilder => build(emptyMetadata('number')),
  boolean: (): PlainFieldBuilder<boolean> => build(emptyMetadata('boolean')),
  /** A calendar date `YYYY-MM-DD` or an ISO 8601 date-time, held as a string. */
  date: (): PlainFieldBuilder<string> => build(emptyMetadata('date')),
  enum: <const V extends readonly [string, ...string[]]>(values: V): EnumFieldBuilder<V[number]> =>
    build({ ...emptyMetadata('enum'), values: [...values] }),
  array: <Item extends FieldBuilder>(items: Item): ArrayFieldBuilder<Item> =>
    build({ ...emptyMetadata('array'), items: toItems(items) }, { items }),
  object: <Fields extends FieldMap>(fields: Fields): ObjectFieldBuilder<Fields> =>
    build({ ...emptyMetadata('object'), fields: fieldMetadataMap(fields) }, { fields }),
  /**
   * A reference to a document of the target type: its name, or the `defineType` result (then a
   * resolved reference is typed with the target's frontmatter).
   */
  reference: <const Target extends string | NamedType>(target: Target): ReferenceFieldBuilder<Target> =>
    build({
      ...emptyMetadata('reference'),
      reference: { targetType: typeof target === 'string' ? target : target.name },
    }),
};

export { fieldMetadataMap };
