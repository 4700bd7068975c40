import { CmsError } from '@cms/core';
import { defineAction, singleFileFormSchema } from '../../src/actions/define-action.js';
import type { ServerModule } from '../../src/modules/module-types.js';

/** A test-only module with routes that exercise the envelopes, limits and failure paths. */
export function probeModule(options: { slowMs?: number; onSlowStart?: () => void } = {}): ServerModule {
  return {
    manifest: { id: 'test.probe', version: '1.0.0', apiVersion: '1', kind: 'domain', dependsOn: ['core.system'] },
    setup: () => ({
      actions: [
        defineAction<unknown, unknown, { name: string; count?: number }>({
          id: 'probe.echo',
          kind: 'command',
          method: 'POST',
          path: '/api/v1/probe/echo',
          summary: 'Echo a body',
          permissions: ['content:write'],
          target: 'environment',
          request: {
            body: {
              type: 'object',
              required: ['name'],
              additionalProperties: false,
              properties: { name: { type: 'string', minLength: 1 }, count: { type: 'integer', minimum: 0 } },
            },
          },
          response: {
            status: 201,
            envelope: 'single',
            schema: { type: 'object', properties: { name: { type: 'string' }, count: { type: 'integer' } } },
          },
          handler: async ({ body }) => body,
        }),
        defineAction<unknown, { limit: number; offset: number; tag?: string[] }>({
          id: 'probe.list',
          kind: 'query',
          method: 'GET',
          path: '/api/v1/probe/items',
          summary: 'A paginated list',
          permissions: ['content:read'],
          target: 'environment',
          repeatableQuery: ['tag'],
          request: {
            query: {
              type: 'object',
              additionalProperties: false,
              properties: {
                limit: { type: 'integer', minimum: 1, maximum: 100, default: 20 },
                offset: { type: 'integer', minimum: 0, default: 0 },
                tag: { type: 'array', items: { type: 'string' } },
              },
            },
          },
          response: {
            status: 200,
            envelope: 'paginated',
            schema: { type: 'object', properties: { n: { type: 'integer' } } },
          },
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
          id: 'probe.crash',
          kind: 'query',
          method: 'GET',
          path: '/api/v1/probe/crash',
          summary: 'A bug',
          permissions: [],
          target: 'none',
          auth: 'public',
          response: { status: 200, envelope: 'single' },
          handler: async () => {
            throw new Error('secret internal detail');
          },
        }),
        defineAction({
          id: 'probe.slow',
          kind: 'query',
          method: 'GET',
          path: '/api/v1/probe/slow',
          summary: 'Takes a while',
          permissions: [],
          target: 'none',
          auth: 'public',
          response: {
            status: 200,
            envelope: 'single',
            schema: { type: 'object', properties: { done: { type: 'boolean' } } },
          },
          handler: async () => {
            options.onSlowStart?.();
            await new Promise((resolve) => setTimeout(resolve, options.slowMs ?? 300));
            return { done: true };
          },
        }),
        defineAction({
          id: 'probe.upload',
          kind: 'command',
          method: 'POST',
          path: '/api/v1/probe/upload',
          summary: 'Declares a multipart body (never parsed: the declaration is what is tested)',
          permissions: ['media:upload'],
          target: 'environment',
          request: { multipart: singleFileFormSchema('file') },
          response: { status: 201, envelope: 'single' },
          handler: async () => ({}),
        }),
        defineAction({
          id: 'probe.rate',
          kind: 'query',
          method: 'GET',
          path: '/api/v1/probe/rate',
          summary: 'Always rate limited',
          permissions: [],
          target: 'none',
          auth: 'public',
          response: { status: 200, envelope: 'single' },
          handler: async () => {
            throw new CmsError('RATE_LIMITED', undefined, {}, { 'retry-after': '7' });
          },
        }),
      ],
    }),
  };
}
