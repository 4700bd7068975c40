/**
 * The built server's JSON log is buffered (docs/operations.md "Logs"): a request line may be written up to
 * 200 ms after its answer. Stopping the server right after its last answer must still leave every line
 * in the output, whole: what is buffered is written at exit.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sendRequest } from '../support/test-server.js';
import { ensureBuilt, prepareServerStore, type ServerStore, startServerProcess } from './server-process.js';

let store: ServerStore;

beforeAll(async () => {
  ensureBuilt();
  store = await prepareServerStore('cms-log-lines-');
});

afterAll(async () => {
  await store.remove();
});

describe('buffered JSON log lines', () => {
  it('writes the request line of every answer, whole, when stopped right after the last one', async () => {
    const server = await startServerProcess({ ...store.env, LOG_FORMAT: 'json' });
    const ids = Array.from({ length: 40 }, (_, n) => `log-line-${n}`);
    for (const id of ids) {
      const answer = await sendRequest(server.url, store.key, 'GET', '/api/v1/me', { headers: { 'x-request-id': id } });
      expect(answer.status).toBe(200);
    }
    // At once: well within the 200 ms after which buffered lines are written anyway.
    await server.kill('SIGTERM');
    const entries = server.logs
      .filter((line) => line.startsWith('{'))
      .map((line) => JSON.parse(line) as { msg?: string; requestId?: string });
    const logged = new Set(entries.filter((entry) => entry.msg === 'request').map((entry) => entry.requestId));
    expect(ids.filter((id) => !logged.has(id))).toEqual([]);
    expect(entries.some((entry) => entry.msg === 'shutting down: finishing in-flight requests')).toBe(true);
    // The key every request carried is in no line, whole or in part.
    expect(server.logs.filter((line) => line.includes(store.key.slice(-16)))).toEqual([]);
  });
});
