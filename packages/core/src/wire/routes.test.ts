import { describe, expect, it } from 'vitest';
import { contentGetRoute, type GetDocumentQuerySchema } from './content.routes.js';
import { fillPath, type RouteInput, type RouteOutput, toRouterPath, type Validated } from './define-route.js';
import { routeTable } from './route-table.js';
import { allRoutes, routes } from './routes.js';

describe('route contracts', () => {
  it('keys every route by its action id, once', () => {
    const ids = allRoutes.map((route) => route.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const [id, route] of Object.entries(routes)) expect(route.id).toBe(id);
  });

  it('keeps the light route table equal to the declarations (CMS_WRITE_ROUTE_TABLE=1 rewrites it)', async () => {
    const derived = Object.fromEntries(allRoutes.map((route) => [route.id, [route.method, route.path]]));
    if (process.env.CMS_WRITE_ROUTE_TABLE === '1') {
      const { readFile, writeFile } = await import('node:fs/promises');
      const file = new URL('./route-table.ts', import.meta.url);
      const source = await readFile(file, 'utf8');
      const rows = allRoutes.map((route) => `  '${route.id}': ['${route.method}', '${route.path}'],`);
      const body = `export const routeTable = {\n${rows.join('\n')}\n} as const`;
      await writeFile(file, source.replace(/export const routeTable = \{[\s\S]*?\n\} as const/, body));
      return;
    }
    expect(routeTable).toEqual(derived);
  });

  it('marks every declared query parameter that carries a credential secret, so logs show it redacted', () => {
    // The server keeps a declared query value in its request log unless `secretQuery` names it.
    const credentialLike = /token|secret|password|code|state|signature|key/i;
    const unmarked = allRoutes.flatMap((route) => {
      const query = (route.request as { query?: { properties?: Record<string, unknown> } }).query;
      const secret = new Set(route.secretQuery ?? []);
      return Object.keys(query?.properties ?? {})
        .filter((name) => credentialLike.test(name) && !secret.has(name))
        .map((name) => `${route.id}: ${name}`);
    });
    expect(unmarked).toEqual([]);
    expect(routes['content.previewEvents'].secretQuery).toEqual(['token']);
  });

  it('checks every key of a map and every value: no patternProperties, whose unmatched keys skip the value schema', () => {
    const found: string[] = [];
    const walk = (schema: unknown, where: string): void => {
      if (!schema || typeof schema !== 'object') return;
      if ('patternProperties' in schema) found.push(where);
      for (const [key, inner] of Object.entries(schema)) walk(inner, `${where}.${key}`);
    };
    for (const route of allRoutes) {
      for (const [part, schema] of Object.entries(route.request)) walk(schema, `${route.id}.${part}`);
      walk(route.response.schema, `${route.id}.response`);
    }
    expect(found).toEqual([]);
  });

  it('fills and converts path placeholders', () => {
    expect(fillPath(contentGetRoute.path, { documentId: 'a b' })).toBe('/api/v1/content/a%20b');
    expect(toRouterPath(contentGetRoute.path)).toBe('/api/v1/content/:documentId');
    expect(() => fillPath(contentGetRoute.path, {})).toThrow(/documentId/);
  });

  it('types input and output from the declaration', () => {
    const input: RouteInput<typeof contentGetRoute> = {
      params: { documentId: 'x' },
      query: { resolve: ['author'] },
      headers: {},
    };
    const output = { publishedVersion: null } as Partial<RouteOutput<typeof contentGetRoute>>;
    expect(input.params.documentId).toBe('x');
    expect(output.publishedVersion).toBeNull();
    const validated: Validated<typeof GetDocumentQuerySchema> = { draft: true };
    // @ts-expect-error validation fills `draft`, so the handler's type requires it
    const missing: Validated<typeof GetDocumentQuerySchema> = {};
    expect([validated.draft, missing]).toEqual([true, {}]);
  });

  it('declares plain JSON Schema: no Node-only import, serialisable', () => {
    const json = JSON.parse(JSON.stringify(contentGetRoute.request.query));
    expect(json.additionalProperties).toBe(false);
    expect(json.properties.draft).toEqual({ type: 'boolean', default: false });
  });
});
