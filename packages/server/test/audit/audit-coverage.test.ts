import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../support/test-server.js';
import { auditEntries } from './audit-helpers.js';

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer();
});
afterAll(() => t.close());

interface CatalogItem {
  id: string;
  kind: 'command' | 'query';
  method: string;
  path: string;
  target?: string;
}

/** A path with every `{param}` filled: ids get a fresh UUID (nothing to find), others a plain word. */
function filled(path: string): string {
  return path.replace(/\{([A-Za-z0-9_]+)\}/g, (_whole, name: string) =>
    /id$/i.test(name) ? randomUUID() : name === 'version' ? '1' : 'x',
  );
}

/** Commands that change nothing a person would call a change: they write no entry (docs/audit.md "Not written"). */
const NOT_WRITTEN = new Set(['content.presence.heartbeat', 'content.presence.leave']);

describe('audit coverage of the action catalog', () => {
  it('every mutating action writes an entry, whatever its answer', async () => {
    const catalog = await t.request('GET', '/api/v1/actions');
    expect(catalog.status, catalog.text).toBe(200);
    const commands = (catalog.body.data as CatalogItem[]).filter(
      (item) => item.kind === 'command' && !NOT_WRITTEN.has(item.id),
    );
    expect(commands.length).toBeGreaterThan(40);
    const missing: string[] = [];
    for (const action of commands) {
      // A key that revokes itself would lock the walk out: it uses a key of its own.
      const key = action.id === 'api-keys.revokeCurrent' ? await t.createKey() : undefined;
      const response = await t.request(action.method, filled(action.path), {
        ...(key ? { key } : {}),
        ...(action.method === 'GET' || action.method === 'DELETE' ? {} : { body: {} }),
      });
      const requestId = response.headers.get('x-request-id');
      const instance = action.target === 'none' || action.target === 'optional';
      const entries = await auditEntries(t, { action: action.id }, instance ? { project: null } : {});
      const entry = entries.find((candidate) => candidate.requestId === requestId);
      if (!entry) missing.push(`${action.id} (${response.status})`);
      // A refusal is never a success; a 2xx/3xx may still be a refusal (an SSO callback redirects either way).
      else if (response.status >= 400) {
        expect(entry.outcome).toBe(response.status === 401 || response.status === 403 ? 'denied' : 'failure');
      }
    }
    expect(missing).toEqual([]);
  });

  it('queries write no entry', async () => {
    const response = await t.request('GET', '/api/v1/content?type=post');
    const requestId = response.headers.get('x-request-id');
    const entries = [...(await auditEntries(t)), ...(await auditEntries(t, {}, { project: null }))];
    expect(entries.filter((entry) => entry.requestId === requestId)).toEqual([]);
  });
});
