/**
 * The change feed never skips or repeats a change however transactions interleave (docs/architecture.md
 * "The change feed"): releases publish hundreds of documents in one transaction while single publishes
 * commit around them and a reader follows the cursor all along, with real parallel requests, round
 * after round. A feed ordered by a number taken inside the transactions would let the reader pass a
 * release's changes before the release commits; this one lists each change exactly once. The
 * reliability suite runs a 10,000-document release the same way (change-feed.reliability.ts).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { syncSchema } from '../content/fixtures.js';
import { startTestServer, type TestServer } from '../support/test-server.js';
import { raceReleaseAndPublishes } from './feed-race.js';

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer();
  await syncSchema(t);
});
afterAll(() => t.close());

describe('change feed order under concurrent commits', () => {
  it('lists every publish of racing releases and single publishes exactly once, round after round', async () => {
    // PGlite runs one transaction at a time: fewer, smaller rounds say the same there.
    const postgres = t.db.engine === 'postgres';
    const rounds = postgres ? 8 : 2;
    for (let round = 0; round < rounds; round++) {
      const outcome = await raceReleaseAndPublishes([t], {
        releaseSize: postgres ? 300 : 100,
        singles: postgres ? 12 : 4,
        round,
      });
      expect(outcome.missing, `round ${round}: missed`).toEqual([]);
      expect(outcome.repeated, `round ${round}: repeated`).toEqual([]);
      expect(outcome.unexpected, `round ${round}: unexpected`).toEqual([]);
      expect(outcome.readsWhileWriting, `round ${round}: the reader read while writes ran`).toBeGreaterThan(0);
    }
  }, 600_000);
});
