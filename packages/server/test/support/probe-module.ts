import { CmsError, defineRoute, SingleFileFormSchema, WithDefault } from '@cms/core';
import { Type } from 'typebox';
import { defineAction } from '../../src/actions/define-action.js';
import type { ServerModule } from '../../src/modules/module-types.js';

/** Contracts of the probe routes, declared as every route is (`defineRoute`, TypeBox). */
const probeEchoRoute = defineRoute({
  id: 'probe.echo',
  kind: 'command',
  method: 'POST',
  path: '/api/v1/probe/echo',
  summary: 'Echo a body',
  target: 'environment',
  request: {
    body: Type.Object(
      { name: Type.String({ minLength: 1 }), count: Type.Optional(Type.Integer({ minimum: 0 })) },
      { additionalProperties: false },
    ),
  },
  response: {
    status: 201,
    envelope: 'single',
    schema: Type.Object({ name: Type.Optional(Type.String()), count: Type.Optional(Type.Integer()) }),
  },
});

const probeListRoute = defineRoute({
  id: 'probe.list',
  kind: 'query',
  method: 'GET',
  path: '/api/v1/probe/items',
  summary: 'A paginated list',
  target: 'environment',
  repeatableQuery: ['tag'],
  request: {
    query: Type.Object(
      {
        limit: WithDefault(Type.Integer({ minimum: 1, maximum: 100 }), 20),
        offset: WithDefault(Type.Integer({ minimum: 0 }), 0),
        tag: Type.Optional(Type.Array(Type.String())),
      },
      { additionalProperties: false },
    ),
  },
  response: { status: 200, envelope: 'paginated', schema: Type.Object({ n: Type.Optional(Type.Integer()) }) },
});

const probeCrashRoute = defineRoute({
  id: 'probe.crash',
  kind: 'query',
  method: 'GET',
  path: '/api/v1/probe/crash',
  summary: 'A bug',
  target: 'none',
  auth: 'public',
  request: {},
  response: { status: 200, envelope: 'single' },
});

const probeSlowRoute = defineRoute({
  id: 'probe.slow',
  kind: 'query',
  method: 'GET',
  path: '/api/v1/probe/slow',
  summary: 'Takes a while',
  target: 'none',
  auth: 'public',
  request: {},
  response: { status: 200, envelope: 'single', schema: Type.Object({ done: Type.Optional(Type.Boolean()) }) },
});

const probeUploadRoute = defineRoute({
  id: 'probe.upload',
  kind: 'command',
  method: 'POST',
  path: '/api/v1/probe/upload',
  summary: 'Declares a multipart body (never parsed: the declaration is what is tested)',
  target: 'environment',
  request: { multipart: SingleFileFormSchema('file') },
  response: { status: 201, envelope: 'single' },
});

const probeRateRoute = defineRoute({
  id: 'probe.rate',
  kind: 'query',
  method: 'GET',
  path: '/api/v1/probe/rate',
  summary: 'Always rate limited',
  target: 'none',
  auth: 'public',
  request: {},
  response: { status: 200, envelope: 'single' },
});

const probeConflictRoute = defineRoute({
  id: 'probe.conflict',
  kind: 'command',
  method: 'POST',
  path: '/api/v1/probe/conflict',
  summary: 'A transaction PostgreSQL aborts as a deadlock victim on its first `conflicts` attempts',
  target: 'none',
  auth: 'public',
  request: {
    query: Type.Object({ conflicts: Type.Integer({ minimum: 0, maximum: 10 }) }, { additionalProperties: false }),
  },
  response: { status: 200, envelope: 'single', schema: Type.Object({ attempts: Type.Optional(Type.Integer()) }) },
});

/**
 * PostgreSQL's own deadlock error (SQLSTATE 40P01), raised on purpose: the same error a real
 * deadlock victim gets, without depending on two transactions meeting in time.
 */
const RAISE_DEADLOCK = `do $$ begin raise exception 'deadlock detected (raised by the probe)' using errcode = '40P01'; end $$`;

/** A test-only module with routes that exercise the envelopes, limits and failure paths. */
export function probeModule(options: { slowMs?: number; onSlowStart?: () => void } = {}): ServerModule {
  return {
    manifest: { id: 'test.probe', version: '1.0.0', apiVersion: '1', kind: 'domain', dependsOn: ['core.system'] },
    setup: (deps) => ({
      actions: [
        defineAction({
          route: probeEchoRoute,
          permissions: ['content:write'],
          handler: async ({ body }) => body,
        }),
        defineAction({
          route: probeListRoute,
          permissions: ['content:read'],
          handler: async ({ query }) => {
            const all = Array.from({ length: 45 }, (_, n) => ({ n }));
            return {
              items: all.slice(query.offset, query.offset + query.limit),
              total: all.length,
              limit: query.limit,
              offset: query.offset,
            };
          },
        }),
        defineAction({
          route: probeCrashRoute,
          permissions: [],
          handler: async () => {
            throw new Error('secret internal detail');
          },
        }),
        defineAction({
          route: probeSlowRoute,
          permissions: [],
          handler: async () => {
            options.onSlowStart?.();
            await new Promise((resolve) => setTimeout(resolve, options.slowMs ?? 300));
            return { done: true };
          },
        }),
        defineAction({
          route: probeUploadRoute,
          permissions: ['media:upload'],
          handler: async () => ({}),
        }),
        defineAction({
          route: probeConflictRoute,
          permissions: [],
          handler: async ({ query }) => {
            let attempts = 0;
            await deps.db.transaction(async (tx) => {
              attempts += 1;
              if (attempts <= query.conflicts) await tx.query(RAISE_DEADLOCK);
            });
            return { attempts };
          },
        }),
        defineAction({
          route: probeRateRoute,
          permissions: [],
          handler: async () => {
            throw new CmsError('RATE_LIMITED', undefined, {}, { 'retry-after': '7' });
          },
        }),
      ],
    }),
  };
}
