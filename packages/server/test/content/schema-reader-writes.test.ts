import { computeSchemaHash, type ResolvedSchema } from '@cms/core';
import { describe, expect, it } from 'vitest';
import { createSchemaReader } from '../../src/modules/domain-content/schema/schema-reader.js';
import type { Queryable } from '../../src/storage/db.js';
import type { InvalidationBus } from '../../src/tenancy/invalidation.js';

const target = { projectId: 'p1', environmentId: 'e1' };
const schemaOf = (fields: string[]): ResolvedSchema =>
  ({ types: [{ name: 'post', fields: Object.fromEntries(fields.map((f) => [f, { type: 'string' }])) }] }) as never;

/** The registry row of e1 as the database holds it now; counts the full layer reads (with the schema). */
function fakeDatabase(initial: { schema: ResolvedSchema; syncedAt: Date }) {
  let row = { ...initial };
  let layerReads = 0;
  const db: Queryable = {
    async query(sql: string) {
      const layer = {
        environmentId: 'e1',
        projectId: 'p1',
        schemaHash: computeSchemaHash(row.schema),
        syncedAt: row.syncedAt,
      };
      if (sql.includes('resolved_schema')) {
        layerReads += 1;
        return {
          rows: [{ ...layer, resolvedSchema: row.schema, configLocales: null, syncedBy: 'u' }],
          rowCount: 1,
        } as never;
      }
      return { rows: [layer], rowCount: 1 } as never;
    },
  } as Queryable;
  return {
    db,
    layerReads: () => layerReads,
    sync: (schema: ResolvedSchema, syncedAt: Date) => {
      row = { schema, syncedAt };
    },
  };
}

function fakeBus() {
  const handlers: Array<() => void> = [];
  const bus = {
    subscribe: (topic: string, handler: () => void) => {
      if (topic === 'schema') handlers.push(handler);
    },
    isLive: () => true,
    publish: async () => undefined,
  } as unknown as InvalidationBus;
  const announceSync = () => {
    for (const handler of handlers) handler();
  };
  return { bus, announceSync };
}

describe('schema reader: writes without reads in between', () => {
  it('merge the layers once, then reuse the merge while the same layers are in force', async () => {
    const data = fakeDatabase({ schema: schemaOf(['title', 'slug']), syncedAt: new Date(1_000) });
    const reader = createSchemaReader(data.db, fakeBus().bus);
    const first = await reader.load(data.db, target);
    const second = await reader.load(data.db, target);
    expect(data.layerReads()).toBe(1);
    expect(second).toBe(first);
    expect(Object.keys(second?.types.get('post')?.fields ?? {})).toEqual(['title', 'slug']);
  });

  it('merge again after a sync that keeps the hash (a new field order) even before its invalidation arrives', async () => {
    const data = fakeDatabase({ schema: schemaOf(['title', 'slug']), syncedAt: new Date(1_000) });
    const reader = createSchemaReader(data.db, fakeBus().bus);
    await reader.load(data.db, target);
    data.sync(schemaOf(['slug', 'title']), new Date(2_000));
    const after = await reader.load(data.db, target);
    expect(data.layerReads()).toBe(2);
    expect(Object.keys(after?.types.get('post')?.fields ?? {})).toEqual(['slug', 'title']);
  });

  it('never hand a write-time merge to reads, and forget them all at a schema invalidation', async () => {
    const data = fakeDatabase({ schema: schemaOf(['title']), syncedAt: new Date(1_000) });
    const { bus, announceSync } = fakeBus();
    const reader = createSchemaReader(data.db, bus);
    await reader.load(data.db, target);
    // A read merges on its own (its cache is filled by reads only): one more layer read.
    await reader.find(target);
    expect(data.layerReads()).toBe(2);
    announceSync();
    await reader.load(data.db, target);
    expect(data.layerReads()).toBe(3);
  });
});
