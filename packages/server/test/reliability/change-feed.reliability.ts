/**
 * The change feed under the load it exists for (docs/architecture.md "The change feed"): a release of
 * 10,000 documents commits while single publishes commit around it, through two server processes on one
 * PostgreSQL database (one process on PGlite, which a single process owns), and a reader following the
 * published feed through both, round after round, sees every publish exactly once. The API test
 * (test/changes/change-feed-order.test.ts) runs the same race at CI size.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { feedPage, type Requester } from '../changes/change-fixtures.js';
import { raceReleaseAndPublishes } from '../changes/feed-race.js';
import { syncBody } from '../content/fixtures.js';
import { testEngine } from '../support/test-database.js';
import { sendRequest } from '../support/test-server.js';
import { printFigures } from './figures.js';
import {
  ensureBuilt,
  prepareServerStore,
  type ServerProcess,
  type ServerStore,
  startServerProcess,
} from './server-process.js';

/** Documents of each round's release, and single publishes racing it. */
const RELEASE = { postgres: 10_000, pglite: 2_000 } as const;
const SINGLES = 60;
const ROUNDS = { postgres: 3, pglite: 1 } as const;

let store: ServerStore;
const servers: ServerProcess[] = [];

beforeAll(async () => {
  ensureBuilt();
  store = await prepareServerStore('cms-feed-');
}, 300_000);

afterAll(async () => {
  for (const server of servers) await server.kill('SIGTERM');
  await store.remove();
});

/** A request sender for a child server process, as the race helpers take it. */
function requester(server: ServerProcess): Requester {
  return { request: (method, path, options = {}) => sendRequest(server.url, store.key, method, path, options) };
}

describe('change feed with a 10,000-document release', () => {
  it('lists every publish exactly once while releases and single publishes commit around each other', async () => {
    const processes = testEngine() === 'postgres' ? 2 : 1;
    for (let i = 0; i < processes; i += 1) servers.push(await startServerProcess(store.env));
    const clients = servers.map(requester);
    const [first] = clients as [Requester];
    expect((await first.request('PUT', '/api/v1/schema/sync', { body: syncBody() })).status).toBe(200);
    const rounds: { readsWhileWriting: number; ms: number }[] = [];
    for (let round = 0; round < ROUNDS[testEngine()]; round += 1) {
      const started = Date.now();
      const outcome = await raceReleaseAndPublishes(clients, {
        releaseSize: RELEASE[testEngine()],
        singles: SINGLES,
        round,
        pageSize: 1000,
      });
      expect(outcome.missing, `round ${round}: missed`).toEqual([]);
      expect(outcome.repeated, `round ${round}: repeated`).toEqual([]);
      expect(outcome.unexpected, `round ${round}: unexpected`).toEqual([]);
      rounds.push({ readsWhileWriting: outcome.readsWhileWriting, ms: Date.now() - started });
    }
    // Both processes answer the same feed.
    const ends = await Promise.all(clients.map(async (client) => (await feedPage(client, { limit: 1 })).data));
    for (const data of ends) expect(data).toEqual(ends[0]);
    printFigures('change-feed-race', testEngine(), {
      processes,
      releaseDocuments: RELEASE[testEngine()],
      singlePublishes: SINGLES,
      rounds,
    });
  }, 1_200_000);
});
