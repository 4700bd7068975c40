import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { syncSchema } from '../content/fixtures.js';
import { startTestServer, type TestResponse, type TestServer } from '../support/test-server.js';

type Schema = Record<string, any>;
interface Operation {
  method: string;
  path: string;
  op: Schema;
}

let t: TestServer;
let operations: Operation[];
beforeAll(async () => {
  t = await startTestServer();
  await syncSchema(t);
  const doc = (await t.request('GET', '/api/v1/openapi.json', { key: null })).body;
  operations = Object.entries(doc.paths as Record<string, Record<string, Schema>>).flatMap(([path, ops]) =>
    Object.entries(ops).map(([method, op]) => ({ method: method.toUpperCase(), path, op })),
  );
});
afterAll(() => t.close());

/** Validator phrases that must never reach a user. */
const RAW_VALIDATOR_TEXT =
  /must have required property|must be equal to one of the allowed values|must NOT have additional properties|must match pattern|must be (<|>)=? \d|must be (string|integer|number|object|array|boolean)\b|body\.body|must match format/;

/** Enveloped answers (`{ data }`) and routes that declare query parameters refuse unknown ones. */
function refusesUnknownQuery(op: Schema): boolean {
  const success = Object.entries(op.responses as Record<string, Schema>).find(([status]) => status.startsWith('2'));
  const schema = success?.[1].content?.['application/json']?.schema;
  return queryParams(op).length > 0 || schema?.properties?.data !== undefined;
}

function queryParams(op: Schema): Schema[] {
  return (op.parameters as Schema[]).filter((p) => p.in === 'query');
}

/** A concrete URL of the operation: path parameters filled with plausible values. */
function urlOf(operation: Operation, query = ''): string {
  const path = operation.path.replace(/\{([A-Za-z0-9_]+)\}/g, (_all, name: string) => {
    const parameter = (operation.op.parameters as Schema[]).find((p) => p.in === 'path' && p.name === name);
    const schema = parameter?.schema ?? {};
    if (schema.type === 'integer') return '1';
    if (schema.format === 'uuid' || /id$/i.test(name)) return randomUUID();
    return 'x';
  });
  return `${path}${query ? `?${query}` : ''}`;
}

function send(operation: Operation, query: string, body?: unknown): Promise<TestResponse> {
  const headers: Record<string, string> = {};
  const hash = (operation.op.parameters as Schema[]).some((p) => p.name === 'X-CMS-Schema-Hash');
  if (hash) headers['x-cms-schema-hash'] = 'sha256:unused';
  return t.request(operation.method, urlOf(operation, query), body === undefined ? { headers } : { headers, body });
}

/** Every field message is the user's words: it names the field in the envelope message, no raw validator text. */
function expectReadable(response: TestResponse, context: string): Record<string, string> {
  expect(response.status, `${context}: ${response.text}`).toBe(400);
  const error = response.body.error;
  expect(['INVALID_INPUT', 'INVALID_QUERY_PARAM'], context).toContain(error.code);
  const fields = error.details.fields as Record<string, string>;
  expect(Object.keys(fields).length, context).toBeGreaterThan(0);
  const [first] = Object.keys(fields);
  expect(error.message.startsWith(first as string), `${context}: ${error.message}`).toBe(true);
  for (const [field, message] of Object.entries(fields)) {
    expect(field, context).not.toBe('');
    expect(message, `${context}: ${field}`).not.toMatch(RAW_VALIDATOR_TEXT);
    expect(message, `${context}: ${field}`).toMatch(/^(must|is required|is not a|is a)/);
  }
  return fields;
}

describe('OpenAPI: what each operation declares', () => {
  it('lists per operation only the error codes it can answer, HTTP-layer answers included', () => {
    for (const { op } of operations) {
      for (const status of ['400', '408', '431', '500', '503']) {
        expect(op.responses[status], `${op.operationId} ${status}`).toBeDefined();
      }
      for (const [status, response] of Object.entries(op.responses as Record<string, Schema>)) {
        // 416 is a range outside a file: no envelope, its Content-Range says why (RFC 9110 §15.5.17).
        if (Number(status) < 400 || status === '416') continue;
        expect(response['x-cms-error-codes'].length, op.operationId).toBeGreaterThan(0);
      }
    }
    const byId = Object.fromEntries(operations.map(({ op }) => [op.operationId, op]));
    expect(byId['content.create'].responses['409']['x-cms-error-codes']).toEqual(
      expect.arrayContaining(['SCHEMA_HASH_MISMATCH', 'CONTENT_PATH_CONFLICT']),
    );
    expect(byId['content.update'].responses['409']['x-cms-error-codes']).toContain('CONFLICT');
    // A duplicate environment name (environments.service.ts).
    expect(byId['environments.create'].responses['409']['x-cms-error-codes']).toEqual(['CONFLICT']);
    expect(byId['health.live'].responses['401']).toBeUndefined();
    expect(byId['health.live'].responses['409']).toBeUndefined();
    expect(byId['content.publish'].responses['409']).toBeUndefined();
    expect(byId['auth.login'].responses['429']).toBeDefined();
    // Too many command-line sign-ins started from one address (cli-auth.service.ts).
    expect(byId['auth.cli.start'].responses['429']['x-cms-error-codes']).toEqual(['RATE_LIMITED']);
  });

  it('declares the refusals each service gives, and the answers that are not JSON', () => {
    const byId = Object.fromEntries(operations.map(({ op }) => [op.operationId, op]));
    const codesOf = (id: string, status: number) => byId[id].responses[String(status)]?.['x-cms-error-codes'];
    for (const id of [
      'releases.items.add',
      'releases.items.remove',
      'releases.publish',
      'releases.schedule',
      'releases.unschedule',
      'releases.revert',
    ]) {
      expect(codesOf(id, 409), id).toContain('RELEASE_STATE_CONFLICT');
    }
    expect(codesOf('media.image', 422)).toEqual(['IMAGE_NOT_TRANSFORMABLE', 'IMAGE_TOO_LARGE']);
    // Public commands are rate limited per address (http/rate-limit.ts).
    expect(codesOf('setup.complete', 429)).toEqual(['RATE_LIMITED']);
    expect(codesOf('auth.cli.exchange', 429)).toEqual(['RATE_LIMITED']);
    expect(codesOf('content.previewEvents', 401)).toEqual(['UNAUTHORIZED']);
    // A signed-in admin who must enrol a second factor may still enrol.
    expect(codesOf('content.create', 403)).toContain('MFA_ENROLMENT_REQUIRED');
    expect(codesOf('me.mfa.enrol', 403)).not.toContain('MFA_ENROLMENT_REQUIRED');

    expect(Object.keys(byId['content.events'].responses['200'].content)).toEqual(['text/event-stream']);
    expect(Object.keys(byId['content.previewEvents'].responses['200'].content)).toEqual(['text/event-stream']);
    expect(Object.keys(byId['audit.export'].responses['200'].content)).toEqual(['application/x-ndjson']);
    expect(Object.keys(byId['auth.saml.metadata'].responses['200'].content)).toEqual(['application/xml']);
    for (const id of ['auth.saml.acs', 'auth.sso.callback']) {
      expect(
        Object.keys(byId[id].responses).filter((status) => status < '400'),
        id,
      ).toEqual(['302']);
      expect(byId[id].responses['302'].headers.Location.required, id).toBe(true);
    }
    for (const id of ['content.get', 'content.list', 'media.image', 'media.file']) {
      expect(byId[id].responses['304'], id).toBeDefined();
    }
    expect(Object.keys(byId['media.file'].responses)).toEqual(expect.arrayContaining(['200', '206', '304', '416']));
    expect(byId['content.overview'].responses['304']).toBeUndefined();
  });

  it('documents the answers only a service gives, as real requests get them', async () => {
    const byId = Object.fromEntries(operations.map(({ op }) => [op.operationId, op]));
    const unknown = { challengeId: 'A'.repeat(43) };
    const cases = [
      { id: 'auth.cli.poll', path: '/api/v1/auth/cli/poll', body: unknown },
      { id: 'auth.cli.exchange', path: '/api/v1/auth/cli/exchange', body: { ...unknown, code: 'ABCD-EFGH' } },
      {
        id: 'auth.login',
        path: '/api/v1/auth/login',
        body: { email: 'nobody@example.com', password: 'wrong-password' },
      },
    ];
    for (const { id, path, body } of cases) {
      const response = await t.request('POST', path, { key: null, body });
      const code = response.body.error?.code;
      expect(response.status, `${id}: ${response.text}`).toBeGreaterThanOrEqual(400);
      expect(byId[id].responses[String(response.status)]?.['x-cms-error-codes'], id).toContain(code);
    }
  });

  it('names the licence of the API, as OpenAPI linters ask', async () => {
    const doc = (await t.request('GET', '/api/v1/openapi.json', { key: null })).body;
    expect(doc.info.license).toEqual({ name: 'MIT', identifier: 'MIT' });
  });

  it('declares X-CMS-Schema-Hash required where it is', () => {
    for (const { op } of operations.filter(({ op }) => ['content.create', 'content.update'].includes(op.operationId))) {
      const header = (op.parameters as Schema[]).find((p) => p.name === 'X-CMS-Schema-Hash');
      expect(header?.required, op.operationId).toBe(true);
    }
  });

  it('declares the content of health, readiness and the OpenAPI document, and no literal * segment', () => {
    const byId = Object.fromEntries(operations.map(({ op, path }) => [op.operationId, { op, path }]));
    for (const id of ['health.live', 'health.ready', 'openapi.get']) {
      expect(byId[id]?.op.responses['200'].content['application/json'].schema, id).toBeDefined();
    }
    for (const { path } of operations) expect(path).not.toContain('*');
    expect(byId['media.file']?.path).toMatch(/\{fileName\}$/);
  });

  it('declares integer bounds on every integer parameter', () => {
    for (const { op } of operations) {
      for (const parameter of op.parameters as Schema[]) {
        if (parameter.schema?.type !== 'integer') continue;
        expect(parameter.schema.maximum, `${op.operationId} ${parameter.name}`).toEqual(expect.any(Number));
        expect(parameter.schema.minimum, `${op.operationId} ${parameter.name}`).toEqual(expect.any(Number));
      }
    }
  });
});

describe('every validation error path of the OpenAPI document speaks the user’s language', () => {
  it('unknown query parameters name the parameter and what is allowed', async () => {
    for (const operation of operations) {
      if (!operation.op.responses['400']?.['x-cms-error-codes'].includes('INVALID_QUERY_PARAM')) continue;
      // A raw answer (a file, a stream, health) ignores names it does not know, as a static server
      // does (mount-actions.ts querySchemaOf); it still refuses NUL in a query string.
      if (!refusesUnknownQuery(operation.op)) continue;
      const response = await send(operation, 'zzzUnknown=1');
      const fields = expectReadable(response, `${operation.op.operationId} unknown query`);
      // Fastify checks the body before the query: an operation that needs a body names it first.
      if (!fields.zzzUnknown && operation.op.requestBody?.required) continue;
      expect(fields.zzzUnknown, `${operation.op.operationId} ${JSON.stringify(fields)}`).toMatch(/use "|takes none/);
    }
  });

  it('bad enum values and out-of-range integers name the allowed values and range', async () => {
    let checked = 0;
    for (const operation of operations) {
      for (const parameter of queryParams(operation.op)) {
        const schema = parameter.schema as Schema;
        const enumValues = (schema.enum ?? schema.items?.enum) as unknown[] | undefined;
        if (enumValues) {
          const fields = expectReadable(await send(operation, `${parameter.name}=zz-not-a-value`), parameter.name);
          for (const value of enumValues) expect(fields[parameter.name]).toContain(JSON.stringify(value));
          checked += 1;
        }
        if (schema.type === 'integer') {
          const fields = expectReadable(
            await send(operation, `${parameter.name}=${schema.maximum + 1}`),
            parameter.name,
          );
          expect(fields[parameter.name]).toContain(String(schema.maximum));
          checked += 1;
        }
      }
    }
    expect(checked).toBeGreaterThan(10);
  });

  it('bodies that miss required properties or carry unknown ones name them and what to send', async () => {
    let checked = 0;
    for (const operation of operations) {
      const schema = operation.op.requestBody?.content?.['application/json']?.schema as Schema | undefined;
      if (schema?.type !== 'object') continue;
      const required = (schema.required ?? []) as string[];
      if (required.length > 0) {
        const fields = expectReadable(await send(operation, '', {}), `${operation.op.operationId} {}`);
        for (const name of required)
          expect(fields[`body.${name}`], `${operation.op.operationId} ${name}`).toMatch(/^is required: send /);
        checked += 1;
      }
      if (schema.additionalProperties === false) {
        const body = { zzzUnknown: 1 };
        const fields = expectReadable(await send(operation, '', body), `${operation.op.operationId} unknown`);
        expect(fields['body.zzzUnknown'], operation.op.operationId).toMatch(/^is not an allowed property: use "/);
        checked += 1;
      }
      for (const [name, property] of Object.entries((schema.properties ?? {}) as Record<string, Schema>)) {
        const enumValues = property.enum as unknown[] | undefined;
        if (!enumValues) continue;
        const fields = expectReadable(
          await send(operation, '', { [name]: 'zz-not-a-value' }),
          `${operation.op.operationId} ${name}`,
        );
        for (const value of enumValues) expect(fields[`body.${name}`]).toContain(JSON.stringify(value));
        checked += 1;
      }
    }
    expect(checked).toBeGreaterThan(20);
  });
});
