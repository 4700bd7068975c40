import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FIRST_PARTY_MODULES } from '../../src/modules/first-party.js';
import { probeModule } from '../support/probe-module.js';
import { startTestServer, type TestServer } from '../support/test-server.js';

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer({ modules: [...FIRST_PARTY_MODULES, probeModule({ slowMs: 400 })] });
});
afterAll(() => t.close());

describe('health', () => {
  it('answers /healthz and /readyz without credentials', async () => {
    expect((await t.request('GET', '/healthz', { key: null })).body).toEqual({ status: 'ok' });
    const ready = await t.request('GET', '/readyz', { key: null });
    expect(ready.status).toBe(200);
    expect(ready.body.database).toBe(t.database.engine);
  });
});

describe('action catalog', () => {
  it('lists every action with its declaration', async () => {
    const response = await t.request('GET', '/api/v1/actions');
    expect(response.status).toBe(200);
    const echo = response.body.data.find((a: { id: string }) => a.id === 'probe.echo');
    expect(echo).toMatchObject({
      kind: 'command',
      method: 'POST',
      path: '/api/v1/probe/echo',
      permissions: ['content:write'],
    });
    expect(echo.requestSchema.properties.body.required).toEqual(['name']);
    expect(echo.responseSchema.properties.data).toBeDefined();
  });

  it('filters the catalog by the caller’s scopes', async () => {
    const reader = await t.createKey({ scopes: ['content:read'] });
    const response = await t.request('GET', '/api/v1/actions', { key: reader });
    const ids = response.body.data.map((a: { id: string }) => a.id);
    expect(ids).toContain('probe.list');
    expect(ids).not.toContain('probe.echo');
    const hidden = await t.request('GET', '/api/v1/actions/probe.echo', { key: reader });
    expect(hidden.status).toBe(404);
    const shown = await t.request('GET', '/api/v1/actions/probe.list', { key: reader });
    expect(shown.body.data.id).toBe('probe.list');
  });

  it('hides scoped actions from anonymous callers', async () => {
    const response = await t.request('GET', '/api/v1/actions', { key: null, project: null, environment: null });
    const ids = response.body.data.map((a: { id: string }) => a.id);
    expect(ids).toContain('health.live');
    expect(ids).not.toContain('probe.list');
  });

  it('serves an OpenAPI 3.1 document generated from the same declarations', async () => {
    const response = await t.request('GET', '/api/v1/openapi.json', { key: null });
    expect(response.status).toBe(200);
    expect(response.body.openapi).toBe('3.1.0');
    const catalog = await t.request('GET', '/api/v1/actions');
    for (const action of catalog.body.data) {
      const operation = response.body.paths[action.path]?.[action.method.toLowerCase()];
      expect(operation?.operationId, action.id).toBe(action.id);
    }
    const list = response.body.paths['/api/v1/probe/items'].get;
    expect(list.parameters.map((p: { name: string }) => p.name)).toEqual(
      expect.arrayContaining(['limit', 'offset', 'X-CMS-Project', 'X-CMS-Environment']),
    );
  });
});

describe('catalog and OpenAPI: permissions, headers and bodies', () => {
  let operations: Record<string, any>;
  beforeAll(async () => {
    const response = await t.request('GET', '/api/v1/openapi.json', { key: null });
    operations = {};
    for (const methods of Object.values(response.body.paths) as Record<string, any>[]) {
      for (const operation of Object.values(methods)) operations[operation.operationId] = operation;
    }
  });
  const headerNames = (operation: any) =>
    operation.parameters.filter((p: { in: string }) => p.in === 'header').map((p: { name: string }) => p.name);

  it('shows anyPermissions of content create and update in the catalog and as x-cms-any-permissions', async () => {
    const draftWrite = ['content:write', 'content:write:draft'];
    for (const id of ['content.create', 'content.update']) {
      const item = (await t.request('GET', `/api/v1/actions/${id}`)).body.data;
      // `permissions` alone names a scope that suffices; `anyPermissions` adds the alternative.
      expect(item, id).toMatchObject({ permissions: ['content:write'], anyPermissions: draftWrite });
      expect(operations[id]['x-cms-permissions'], id).toEqual(['content:write']);
      expect(operations[id]['x-cms-any-permissions'], id).toEqual(draftWrite);
    }
    const publish = (await t.request('GET', '/api/v1/actions/content.publish')).body.data;
    expect(publish.permissions).toEqual(['content:publish']);
    expect(publish).not.toHaveProperty('anyPermissions');
    expect(operations['content.publish']['x-cms-permissions']).toEqual(['content:publish']);
    expect(operations['content.publish']).not.toHaveProperty('x-cms-any-permissions');
  });

  it('lists declared request headers as header parameters', () => {
    expect(headerNames(operations['content.create'])).toEqual(
      expect.arrayContaining(['X-CMS-Project', 'X-CMS-Environment', 'X-CMS-Schema-Hash', 'X-CMS-Locale']),
    );
    expect(headerNames(operations['content.update'])).toContain('X-CMS-Schema-Hash');
    expect(headerNames(operations['content.update'])).not.toContain('X-CMS-Locale');
    const hash = operations['content.create'].parameters.find((p: { name: string }) => p.name === 'X-CMS-Schema-Hash');
    expect(hash).toMatchObject({ in: 'header', schema: { type: 'string' } });
    expect(hash.description).toMatch(/SCHEMA_HASH_MISMATCH/);
    expect(headerNames(operations['content.list'])).toContain('X-CMS-Locale');
    expect(headerNames(operations['content.get'])).toContain('X-CMS-Locale');
  });

  it('marks a JSON body required only when its schema does not accept none', () => {
    for (const id of ['content.create', 'content.update', 'schema.sync', 'webhooks.create']) {
      expect(operations[id].requestBody?.required, id).toBe(true);
    }
    for (const id of ['content.publish', 'content.duplicate', 'content.previewTokens.create']) {
      expect(operations[id].requestBody?.required, id).toBe(false);
      expect(operations[id].requestBody.content['application/json'].schema, id).toBeDefined();
    }
    expect(operations['content.delete']).not.toHaveProperty('requestBody');
  });

  it('describes a declared multipart body as multipart/form-data with its binary part', () => {
    expect(Object.keys(operations['media.upload'].requestBody.content)).toEqual(['multipart/form-data']);
    const body = operations['probe.upload'].requestBody;
    expect(body.required).toBe(true);
    expect(Object.keys(body.content)).toEqual(['multipart/form-data']);
    expect(body.content['multipart/form-data'].schema).toMatchObject({
      type: 'object',
      required: ['file'],
      properties: { file: { type: 'string', format: 'binary' } },
    });
  });
});

describe('graceful shutdown', () => {
  it('finishes in-flight requests, then refuses new connections', async () => {
    let started: () => void = () => undefined;
    const handlerStarted = new Promise<void>((resolve) => {
      started = resolve;
    });
    const probe = probeModule({ slowMs: 400, onSlowStart: () => started() });
    const other = await startTestServer({ modules: [...FIRST_PARTY_MODULES, probe] });
    const inFlight = other.request('GET', '/api/v1/probe/slow');
    // Close once the request is in its handler (a fixed wait is not enough on a loaded machine).
    await handlerStarted;
    const closing = other.server.close();
    const response = await inFlight;
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ data: { done: true } });
    await closing;
    await expect(other.request('GET', '/healthz')).rejects.toThrow();
    await other.close();
  });
});
