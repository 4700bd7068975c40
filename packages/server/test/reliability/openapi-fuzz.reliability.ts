/**
 * Fuzzes every operation of `GET /api/v1/openapi.json` with generated bad input: wrong types, NUL,
 * lone surrogates, huge and deeply nested values, out-of-range numbers, injection strings, unknown
 * and repeated parameters, malformed JSON, and bodies valid but for one property (a map property
 * given keys outside its key pattern among them). Any 5xx, an answer outside the envelope, or an
 * answer whose status, media type or error code the document does not declare for its operation fails.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDocument, hashHeader, publishDocument, syncSchema } from '../content/fixtures.js';
import { type OpenApiContract, openApiContract } from '../support/openapi-contract.js';
import { testEngine } from '../support/test-database.js';
import { startTestServer, type TestServer } from '../support/test-server.js';
import { printFigures } from './figures.js';

type Schema = Record<string, any>;
interface Operation {
  method: string;
  path: string;
  op: Schema;
}

/** Cases per operation; RELIABILITY_RUNS raises it for a longer local run. */
const RUNS = Number(process.env.RELIABILITY_RUNS ?? 12);
/** Operations fuzzed at once; RELIABILITY_FUZZ_LANES=1 sends one request at a time. */
const CONCURRENCY = Number(process.env.RELIABILITY_FUZZ_LANES ?? 4);

const HOSTILE_STRINGS = [
  '',
  '\u0000',
  'a\u0000b',
  '\ud800',
  'x\udfffy',
  "'; drop table documents; --",
  '" or 1=1 --',
  '../../../etc/passwd',
  '%00',
  '%ZZ',
  // biome-ignore lint/suspicious/noTemplateCurlyInString: a log-injection probe, sent as typed.
  '${jndi:ldap://127.0.0.1/a}',
  '<script>alert(1)</script>',
  '{{7*7}}',
  '\u202Egnp.exe',
  '-1',
  '0',
  '2147483648',
  '99999999999999999999999',
  '1e309',
  'NaN',
  'true',
  'null',
  '[]',
  '{}',
  'x'.repeat(5000),
  'i/\n',
  'a\nb',
  'a b',
];

const hostileString = fc.oneof(fc.constantFrom(...HOSTILE_STRINGS), fc.string(), fc.string({ unit: 'binary' }));
const hostileNumber = fc.oneof(
  fc.constantFrom(-1, 0, 2_147_483_648, -2_147_483_649, 2 ** 53, 1e308, 0.5, -0),
  fc.integer(),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
);
const { value: hostileValue } = fc.letrec<{ value: unknown }>((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    hostileString,
    hostileNumber,
    fc.boolean(),
    fc.constant(null),
    fc.array(tie('value'), { maxLength: 4 }),
    fc.dictionary(hostileString, tie('value'), { maxKeys: 4 }),
  ),
}));

/** A raw body text: malformed JSON, very deep nesting, or JSON with hostile content. */
const rawBodyText = fc.oneof(
  fc.constantFrom('{', '{"a":', '[1,2', 'nul', '\u0000', '{"__proto__":{"x":1}}', '{"constructor":{"prototype":{}}}'),
  fc.integer({ min: 65, max: 20_000 }).map((depth) => `${'['.repeat(depth)}${']'.repeat(depth)}`),
  fc.integer({ min: 65, max: 20_000 }).map((depth) => `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`),
  hostileValue.map((value) => JSON.stringify(value) ?? 'null'),
);

/** Keys for a map property: mostly keys outside any sane key pattern (a line break escaped `^.*$`). */
const hostileKey = fc.oneof(fc.constantFrom('i/\n', '\n', 'a b', 'A', 'post', '__proto__', '-'), hostileString);
const hostileMap = fc.dictionary(hostileKey, hostileValue, { minKeys: 1, maxKeys: 3 });

/** A value `schema` plausibly accepts: the skeleton a near-valid body mutates one property of. */
function plausible(schema: Schema | undefined, known: { documentId: string }): unknown {
  if (!schema) return null;
  if (schema.default !== undefined) return schema.default;
  if (Array.isArray(schema.enum)) return schema.enum[0];
  if ('const' in schema) return schema.const;
  const alternatives = (schema.anyOf ?? schema.oneOf) as Schema[] | undefined;
  if (alternatives?.[0]) return plausible(alternatives[0], known);
  const types = [schema.type].flat();
  if (types.includes('null')) return null;
  switch (types[0]) {
    case 'string':
      return schema.format === 'uuid' ? known.documentId : 'x'.repeat(Math.max(1, schema.minLength ?? 1));
    case 'integer':
    case 'number':
      return schema.minimum ?? 1;
    case 'boolean':
      return false;
    case 'array':
      return [];
    case 'object': {
      const properties = (schema.properties ?? {}) as Record<string, Schema>;
      const required = (schema.required ?? []) as string[];
      return Object.fromEntries(required.map((name) => [name, plausible(properties[name], known)]));
    }
    default:
      return null;
  }
}

/** Whether a property's schema is a map (any keys, each value of one schema). */
function isMap(schema: Schema | undefined): boolean {
  const object = schema?.type === 'object' || (Array.isArray(schema?.type) && schema.type.includes('object'));
  return (
    object &&
    !schema?.properties &&
    (schema?.propertyNames !== undefined ||
      schema?.patternProperties !== undefined ||
      typeof schema?.additionalProperties === 'object')
  );
}

interface Case {
  pathValues: string[];
  query: [string, string][];
  body: { kind: 'none' } | { kind: 'json'; value: unknown } | { kind: 'raw'; text: string };
  schemaHash: string | null;
}

function caseArbitrary(operation: Operation, known: { documentId: string }): fc.Arbitrary<Case> {
  const parameters = operation.op.parameters as Schema[];
  const pathCount = parameters.filter((p) => p.in === 'path').length;
  const queryNames = parameters.filter((p) => p.in === 'query').map((p) => p.name as string);
  const bodySchema = operation.op.requestBody?.content?.['application/json']?.schema as Schema | undefined;
  const bodyProperties = Object.keys(bodySchema?.properties ?? {});
  const name = fc.oneof(fc.constantFrom(...queryNames, 'unknown', 'limit', 'offset'), hostileString);
  const pathValue = fc.oneof(hostileString, fc.constant(known.documentId), fc.constantFrom('1', '0', '99999999999999'));
  const mutatedBody = fc
    .dictionary(fc.oneof(fc.constantFrom(...bodyProperties, 'unknown'), hostileString), hostileValue, { maxKeys: 5 })
    .map((value) => ({ kind: 'json' as const, value }));
  // Valid but for one property, so the request gets past validation to the service's own rules.
  const skeleton = plausible(bodySchema, known) as Record<string, unknown>;
  const properties = (bodySchema?.properties ?? {}) as Record<string, Schema>;
  const nearValidBody = fc
    .tuple(fc.constantFrom(...bodyProperties, 'unknown'), hostileValue)
    .map(([name, value]) => ({ kind: 'json' as const, value: { ...skeleton, [name]: value } }));
  const maps = bodyProperties.filter((name) => isMap(properties[name]));
  const hostileMapBody = fc
    .tuple(fc.constantFrom(...maps, 'unknown'), hostileMap)
    .map(([name, value]) => ({ kind: 'json' as const, value: { ...skeleton, [name]: value } }));
  return fc.record({
    pathValues: fc.array(pathValue, { minLength: pathCount, maxLength: pathCount }),
    query: fc.array(fc.tuple(name, hostileString), { maxLength: 5 }),
    body: fc.oneof(
      fc.constant({ kind: 'none' as const }),
      mutatedBody,
      ...(bodySchema?.type === 'object' ? [nearValidBody] : []),
      ...(maps.length > 0 ? [hostileMapBody] : []),
      hostileValue.map((value) => ({ kind: 'json' as const, value })),
      rawBodyText.map((text) => ({ kind: 'raw' as const, text })),
    ),
    schemaHash: fc.oneof(fc.constant(null), fc.constantFrom('', 'sha256:x', 'a'.repeat(10_000))),
  });
}

/**
 * Cases every run sends: for each map property of the body, a key with a line break holding an array
 * (such a key once escaped both the key pattern and the value's schema, and the service got an array).
 */
function mapCases(operation: Operation, known: { documentId: string }): Case[] {
  const parameters = operation.op.parameters as Schema[];
  const pathValues = parameters.filter((p) => p.in === 'path').map(() => known.documentId);
  const bodySchema = operation.op.requestBody?.content?.['application/json']?.schema as Schema | undefined;
  const properties = (bodySchema?.properties ?? {}) as Record<string, Schema>;
  const skeleton = plausible(bodySchema, known) as Record<string, unknown>;
  return Object.keys(properties)
    .filter((name) => isMap(properties[name]))
    .map((name) => ({
      pathValues,
      query: [],
      body: { kind: 'json', value: { ...skeleton, [name]: { 'i/\n': [1] } } },
      schemaHash: null,
    }));
}

/** Percent-encodes any string; a lone surrogate goes out as its WTF-8 bytes (`%ED%A0%80`), as a buggy client would send it. */
function encode(value: string): string {
  return value.replace(/[\uD800-\uDBFF][\uDC00-\uDFFF]|[\s\S]/g, (unit) => {
    const code = unit.charCodeAt(0);
    if (unit.length === 1 && code >= 0xd800 && code <= 0xdfff) {
      return [0xed, 0xa0 | ((code >> 6) & 0x0f), 0x80 | (code & 0x3f)]
        .map((byte) => `%${byte.toString(16).toUpperCase()}`)
        .join('');
    }
    return encodeURIComponent(unit);
  });
}

function urlOf(operation: Operation, values: string[]): string {
  let index = 0;
  return operation.path.replace(/\{[A-Za-z0-9_]+\}/g, () => encode(values[index++] ?? 'x'));
}

let t: TestServer;
let operations: Operation[];
let contract: OpenApiContract;
let documentId: string;
beforeAll(async () => {
  t = await startTestServer();
  await syncSchema(t);
  documentId = (await createDocument(t)).documentId;
  await publishDocument(t, documentId);
  const doc = (await t.request('GET', '/api/v1/openapi.json', { key: null })).body;
  contract = openApiContract(doc);
  operations = Object.entries(doc.paths as Record<string, Record<string, Schema>>).flatMap(([path, ops]) =>
    Object.entries(ops).map(([method, op]) => ({ method: method.toUpperCase(), path, op })),
  );
});
afterAll(() => t.close());

describe('OpenAPI-driven fuzzing', () => {
  it('answers every generated bad request below 500, in the envelope', async () => {
    const figures = {
      operations: operations.length,
      requests: 0,
      byStatus: {} as Record<string, number>,
      faults: 0,
      unavailable: 0,
    };
    const faults: string[] = [];
    // Revoking the fuzzer's own key, or signing out, would only turn the rest into 401s.
    const queue = operations.filter(
      (o) => !['api-keys.revoke', 'api-keys.revokeCurrent', 'auth.logout'].includes(o.op.operationId),
    );
    const fuzzOne = async (operation: Operation) => {
      await fc.assert(
        fc.asyncProperty(caseArbitrary(operation, { documentId }), async (input) => {
          const query = input.query.map(([k, v]) => `${encode(k)}=${encode(v)}`).join('&');
          const url = `${t.url}${urlOf(operation, input.pathValues)}${query ? `?${query}` : ''}`;
          const headers: Record<string, string> = {
            authorization: `Bearer ${t.adminKey}`,
            'x-cms-project': 'default',
            'x-cms-environment': 'production',
            ...(input.schemaHash === null ? hashHeader() : { 'x-cms-schema-hash': input.schemaHash }),
          };
          let body: string | undefined;
          if (input.body.kind !== 'none' && !['GET', 'HEAD'].includes(operation.method)) {
            headers['content-type'] = 'application/json';
            body = input.body.kind === 'json' ? (JSON.stringify(input.body.value) ?? 'null') : input.body.text;
          }
          const response = await fetch(url, { method: operation.method, headers, body, redirect: 'manual' });
          // An event stream (a document's events, the live preview's) lasts as long as it is read: its
          // status and headers are the answer here, and the client goes away as an editor's tab does.
          const streamed = response.headers.get('content-type')?.startsWith('text/event-stream') === true;
          if (streamed) await response.body?.cancel();
          const text = streamed ? '' : await response.text();
          figures.requests += 1;
          figures.byStatus[response.status] = (figures.byStatus[response.status] ?? 0) + 1;
          const where = `${operation.op.operationId} ${operation.method} ${url.slice(0, 200)}`;
          if (response.status === 503) figures.unavailable += 1;
          if (response.status >= 500) {
            figures.faults += 1;
            faults.push(`${where} -> ${response.status} ${text.slice(0, 300)}`);
            return;
          }
          const undeclared = contract.problemOf(operation.method, url, {
            status: response.status,
            contentType: response.headers.get('content-type'),
            text,
          });
          if (undeclared) {
            figures.faults += 1;
            faults.push(undeclared);
          }
          if (response.status >= 400) {
            let envelope: any = null;
            try {
              envelope = JSON.parse(text);
            } catch {}
            const ok =
              typeof envelope?.error?.code === 'string' &&
              typeof envelope.error.requestId === 'string' &&
              typeof envelope.error.timestamp === 'string' &&
              typeof envelope.error.message === 'string';
            if (!ok) {
              figures.faults += 1;
              faults.push(`${where} -> ${response.status} not an envelope: ${text.slice(0, 300)}`);
            }
          }
        }),
        // Every fault is collected (not shrunk) so one run reports all of them with the figures.
        { numRuns: RUNS, examples: mapCases(operation, { documentId }).map((example) => [example]) },
      );
    };
    // A few operations at a time, as a client with a small connection pool sends them.
    const lanes = Array.from({ length: CONCURRENCY }, async () => {
      for (let next = queue.shift(); next; next = queue.shift()) await fuzzOne(next);
    });
    await Promise.all(lanes);
    printFigures('fuzz', testEngine(), { ...figures, concurrency: CONCURRENCY });
    expect(faults).toEqual([]);
  });
});
