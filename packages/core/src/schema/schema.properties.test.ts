/**
 * Property-based tests (fast-check) over generated schemas: the hash ignores key order and sees
 * every change; the validator accepts values built to satisfy a schema and rejects wrong kinds.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { ArrayItems, FieldCheck, FieldKind, FieldMetadata, ResolvedSchema, SchemaType } from './field-types.js';
import { compileFrontmatterValidator } from './frontmatter-validator.js';
import { validateResolvedSchema } from './schema-definition.js';
import { canonicalJson, computeSchemaHash } from './schema-hash.js';

const NAME = fc.stringMatching(/^[a-z][a-zA-Z0-9_-]{0,7}$/);
const SCALAR_KINDS: FieldKind[] = ['string', 'number', 'boolean', 'date', 'reference', 'enum'];
const ALL_KINDS: FieldKind[] = [...SCALAR_KINDS, 'object', 'array'];
/** Generation stops nesting here, well inside MAX_FIELD_DEPTH, to keep cases small. */
const GENERATED_DEPTH = 3;

type Spec = Pick<FieldMetadata, 'kind' | 'checks' | 'fields' | 'values' | 'items'> & {
  reference?: FieldMetadata['reference'];
};

const STRING_CHECKS: fc.Arbitrary<FieldCheck[]> = fc.oneof(
  fc.constant<FieldCheck[]>([]),
  fc.tuple(fc.nat(4), fc.nat(6)).map(([min, extra]): FieldCheck[] => [
    { type: 'min', value: min },
    { type: 'max', value: min + extra },
  ]),
  fc.constant<FieldCheck[]>([{ type: 'regex', value: '^[a-z]+$' }]),
  fc.constant<FieldCheck[]>([{ type: 'email' }]),
  fc.constant<FieldCheck[]>([{ type: 'url' }]),
);
const NUMBER_CHECKS: fc.Arbitrary<FieldCheck[]> = fc.oneof(
  fc.constant<FieldCheck[]>([]),
  fc.tuple(fc.integer({ min: -100, max: 100 }), fc.nat(100)).map(([min, extra]): FieldCheck[] => [
    { type: 'min', value: min },
    { type: 'max', value: min + extra },
  ]),
);
const COUNT_CHECKS: fc.Arbitrary<FieldCheck[]> = fc.oneof(
  fc.constant<FieldCheck[]>([]),
  fc.nat(3).map((max): FieldCheck[] => [{ type: 'max', value: max }]),
  fc.nat(2).map((min): FieldCheck[] => [{ type: 'min', value: min }]),
);

function bound(checks: FieldCheck[], type: 'min' | 'max'): number | undefined {
  const check = checks.find((c) => c.type === type);
  return check && 'value' in check && typeof check.value === 'number' ? check.value : undefined;
}

function specArb(kind: FieldKind, depth: number, typeNames: string[]): fc.Arbitrary<Spec> {
  const base = { checks: fc.constant<FieldCheck[]>([]), reference: fc.constant(null) };
  switch (kind) {
    case 'string':
      return fc.record({ kind: fc.constant(kind), ...base, checks: STRING_CHECKS });
    case 'number':
      return fc.record({ kind: fc.constant(kind), ...base, checks: NUMBER_CHECKS });
    case 'reference':
      return fc.record({
        kind: fc.constant(kind),
        ...base,
        reference: fc.constantFrom(...typeNames).map((targetType) => ({ targetType })),
      });
    case 'enum':
      return fc.record({
        kind: fc.constant(kind),
        ...base,
        values: fc.uniqueArray(NAME, { minLength: 1, maxLength: 4 }),
      });
    case 'object':
      return fc.record({ kind: fc.constant(kind), ...base, fields: fieldsArb(depth + 1, typeNames) });
    case 'array':
      return fc.record({ kind: fc.constant(kind), ...base, checks: COUNT_CHECKS, items: itemsArb(depth, typeNames) });
    default:
      return fc.record({ kind: fc.constant(kind), ...base });
  }
}

function itemsArb(depth: number, typeNames: string[]): fc.Arbitrary<ArrayItems> {
  const kinds = depth < GENERATED_DEPTH ? [...SCALAR_KINDS, 'object' as const] : SCALAR_KINDS;
  return fc.constantFrom(...kinds).chain((kind) => specArb(kind, depth, typeNames)) as fc.Arbitrary<ArrayItems>;
}

function fieldArb(depth: number, typeNames: string[]): fc.Arbitrary<FieldMetadata> {
  const kinds = depth < GENERATED_DEPTH ? ALL_KINDS : SCALAR_KINDS;
  return fc
    .constantFrom(...kinds)
    .chain((kind) => specArb(kind, depth, typeNames))
    .chain((spec) =>
      fc
        .record({
          required: fc.boolean(),
          nullable: fc.boolean(),
          // A default must satisfy its field, so draw it from the field's own values.
          default: fc.option(valueArb(spec), { nil: null, freq: 3 }),
        })
        .map((flags) => ({ ...spec, ...flags }) as FieldMetadata),
    );
}

function fieldsArb(depth: number, typeNames: string[]): fc.Arbitrary<Record<string, FieldMetadata>> {
  return fc.dictionary(NAME, fieldArb(depth, typeNames), { maxKeys: 4, noNullPrototype: true });
}

const schemaArb: fc.Arbitrary<ResolvedSchema> = fc
  .uniqueArray(NAME, { minLength: 1, maxLength: 3 })
  .chain((names) =>
    fc.tuple(
      ...names.map((name) =>
        fc.record({
          name: fc.constant(name),
          directory: fc.string({ maxLength: 10 }),
          localized: fc.boolean(),
          fields: fieldsArb(1, names),
        }),
      ),
    ),
  )
  .map((types) => ({ types }));

const typeArb: fc.Arbitrary<SchemaType> = schemaArb.map((schema) => schema.types[0] as SchemaType);

function valueArb(spec: Spec): fc.Arbitrary<unknown> {
  const [min, max] = [bound(spec.checks, 'min'), bound(spec.checks, 'max')];
  switch (spec.kind) {
    case 'string': {
      const type = spec.checks[0]?.type;
      if (type === 'regex') return fc.stringMatching(/^[a-z]+$/);
      if (type === 'email') return fc.emailAddress();
      if (type === 'url') return fc.webUrl();
      return fc.string({ minLength: min ?? 0, maxLength: max ?? 12 });
    }
    case 'number':
      return fc.double({ min: min ?? -1e6, max: max ?? 1e6, noNaN: true, noDefaultInfinity: true });
    case 'boolean':
      return fc.boolean();
    case 'date':
      return fc
        .tuple(fc.date({ min: new Date('1970-01-01'), max: new Date('2999-12-31'), noInvalidDate: true }), fc.boolean())
        .map(([date, dateOnly]) => (dateOnly ? date.toISOString().slice(0, 10) : date.toISOString()));
    case 'reference':
      return fc.uuid();
    case 'enum':
      return fc.constantFrom(...(spec.values ?? []));
    case 'object':
      return objectArb(spec.fields ?? {});
    case 'array':
      return fc.array(valueArb(spec.items as ArrayItems), { minLength: min ?? 0, maxLength: max ?? 4 });
  }
}

function objectArb(fields: Record<string, FieldMetadata>): fc.Arbitrary<Record<string, unknown>> {
  const model = Object.fromEntries(
    Object.entries(fields).map(([name, meta]) => {
      const value = valueArb(meta);
      return [name, meta.nullable ? fc.option(value, { nil: null }) : value];
    }),
  );
  const requiredKeys = Object.entries(fields)
    .filter(([, meta]) => meta.required)
    .map(([name]) => name);
  return fc.record(model, { requiredKeys, noNullPrototype: true });
}

/** A value that is never of the field's kind (and never null, which nullable fields accept). */
function wrongValueArb(kind: FieldKind): fc.Arbitrary<unknown> {
  const notJsonObject = fc.oneof(fc.integer(), fc.boolean(), fc.constant(['x']));
  switch (kind) {
    case 'string':
      return notJsonObject;
    case 'number':
      return fc.oneof(fc.string(), fc.boolean(), fc.constant({}));
    case 'boolean':
      return fc.oneof(fc.string(), fc.integer(), fc.constant('true'));
    case 'date':
      return fc.oneof(fc.integer(), fc.constant('not a date'), fc.constant('2024-13-01'));
    case 'reference':
      return fc.oneof(fc.integer(), fc.constant('not-a-uuid'), fc.constant({ documentId: 'x' }));
    case 'enum':
      return fc.oneof(fc.integer(), fc.constant('NOT-ALLOWED 🙂'));
    case 'object':
      return fc.oneof(fc.string(), fc.integer(), fc.constant<FieldCheck[]>([]));
    case 'array':
      return fc.oneof(fc.string(), fc.integer(), fc.constant({}));
  }
}

/** Copies a JSON value with every object's keys in an order drawn from `random`. */
function shuffleKeys(value: unknown, random: () => number): unknown {
  if (Array.isArray(value)) return value.map((item) => shuffleKeys(item, random));
  if (typeof value !== 'object' || value === null) return value;
  const entries = Object.entries(value).map(([k, v]) => [k, shuffleKeys(v, random)] as const);
  for (let i = entries.length - 1; i > 0; i -= 1) {
    const j = Math.floor(random() * (i + 1));
    [entries[i], entries[j]] = [entries[j] as (typeof entries)[number], entries[i] as (typeof entries)[number]];
  }
  return Object.fromEntries(entries);
}

function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

type Mutation = 'directory' | 'localized' | 'typeName' | 'addField' | 'removeField' | 'flipRequired' | 'changeKind';

function mutate(schema: ResolvedSchema, mutation: Mutation, typeIndex: number): ResolvedSchema {
  const copy = structuredClone(schema);
  const type = copy.types[typeIndex % copy.types.length] as SchemaType;
  const [firstName, firstField] = Object.entries(type.fields)[0] ?? [];
  const addField = () => {
    let name = 'added';
    while (name in type.fields) name += 'x';
    type.fields[name] = {
      kind: 'string',
      required: false,
      nullable: false,
      default: null,
      reference: null,
      checks: [],
    };
  };
  if (mutation === 'directory') type.directory += '/x';
  else if (mutation === 'localized') type.localized = !type.localized;
  else if (mutation === 'typeName') type.name += 'x';
  else if (!firstName || !firstField || mutation === 'addField') addField();
  else if (mutation === 'removeField') delete type.fields[firstName];
  else if (mutation === 'flipRequired') firstField.required = !firstField.required;
  else type.fields[firstName] = { ...firstField, kind: firstField.kind === 'boolean' ? 'number' : 'boolean' };
  return copy;
}

describe('schema hash properties', () => {
  it('canonical JSON never depends on key order', () => {
    fc.assert(
      fc.property(fc.jsonValue(), fc.integer(), (value, seed) => {
        expect(canonicalJson(shuffleKeys(value, seededRandom(seed)))).toBe(canonicalJson(value));
      }),
    );
  });

  it('the key order of a schema never changes its hash', () => {
    fc.assert(
      fc.property(schemaArb, fc.integer(), (schema, seed) => {
        expect(computeSchemaHash(shuffleKeys(schema, seededRandom(seed)))).toBe(computeSchemaHash(schema));
      }),
    );
  });

  it('any change to a schema changes its hash', () => {
    const mutations: Mutation[] = [
      'directory',
      'localized',
      'typeName',
      'addField',
      'removeField',
      'flipRequired',
      'changeKind',
    ];
    fc.assert(
      fc.property(schemaArb, fc.constantFrom(...mutations), fc.nat(), (schema, mutation, typeIndex) => {
        expect(computeSchemaHash(mutate(schema, mutation, typeIndex))).not.toBe(computeSchemaHash(schema));
      }),
    );
  });
});

describe('validator properties', () => {
  it('generated schemas pass sync validation', () => {
    fc.assert(
      fc.property(schemaArb, (schema) => {
        expect(validateResolvedSchema(schema)).toEqual({ ok: true, schema });
      }),
    );
  });

  it('accepts values generated to satisfy the schema', () => {
    fc.assert(
      fc.property(
        typeArb.chain((type) => fc.tuple(fc.constant(type), objectArb(type.fields))),
        ([type, frontmatter]) => {
          expect(compileFrontmatterValidator(type)(frontmatter)).toMatchObject({ ok: true });
        },
      ),
    );
  });

  it('rejects a value of the wrong kind at its path', () => {
    const caseArb = typeArb
      .filter((type) => Object.keys(type.fields).length > 0)
      .chain((type) =>
        fc.constantFrom(...Object.keys(type.fields)).chain((name) => {
          const meta = type.fields[name] as FieldMetadata;
          return fc.tuple(fc.constant(type), fc.constant(name), objectArb(type.fields), wrongValueArb(meta.kind));
        }),
      );
    fc.assert(
      fc.property(caseArb, ([type, name, frontmatter, wrong]) => {
        const result = compileFrontmatterValidator(type)({ ...frontmatter, [name]: wrong });
        expect(result.ok).toBe(false);
        expect(result.ok ? {} : result.fields).toHaveProperty([`frontmatter.${name}`]);
      }),
    );
  });
});
