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

describe('graceful shutdown', () => {
  it('finishes in-flight requests, then refuses new connections', async () => {
    const other = await startTestServer({ modules: [...FIRST_PARTY_MODULES, probeModule({ slowMs: 400 })] });
    const inFlight = other.request('GET', '/api/v1/probe/slow');
    await new Promise((resolve) => setTimeout(resolve, 100));
    const closing = other.server.close();
    const response = await inFlight;
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ data: { done: true } });
    await closing;
    await expect(other.request('GET', '/healthz')).rejects.toThrow();
    await other.close();
  });
});
