/**
 * Kills the server with SIGKILL in the middle of a mixed write load (creates, updates, publishes),
 * restarts it on the same data, and checks that every acknowledged write is there: no lost document,
 * no partial one (title and body are written together), no version gap or duplicate.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BLOG_SCHEMA_HASH, syncBody } from '../content/fixtures.js';
import { testEngine } from '../support/test-database.js';
import { sendRequest, type TestResponse } from '../support/test-server.js';
import { printFigures } from './figures.js';
import {
  ensureBuilt,
  prepareServerStore,
  type ServerProcess,
  type ServerStore,
  startServerProcess,
} from './server-process.js';

const WORKERS = 6;
/** Acknowledged writes to wait for before the kill, so the kill lands in a busy moment. */
const ACKS_BEFORE_KILL = 60;

interface Acked {
  documentId: string;
  /** Highest acknowledged draft revision and the title written with it. */
  revision: number;
  title: string;
  /** Acknowledged published versions. */
  versions: number[];
}

let store: ServerStore;
let env: Record<string, string>;
let key: string;
let server: ServerProcess | null = null;

beforeAll(async () => {
  ensureBuilt();
  store = await prepareServerStore('cms-sigkill-');
  ({ env, key } = store);
});

afterAll(async () => {
  await server?.kill('SIGTERM');
  await store.remove();
});

function api(method: string, path: string, body?: unknown, headers: Record<string, string> = {}) {
  return sendRequest(server?.url as string, key, method, path, { ...(body === undefined ? {} : { body }), headers });
}

/** The frontmatter and body of one write: the body repeats the title, so a partial write shows. */
function content(title: string) {
  return { frontmatter: { title, slug: 'kill-test' }, body: `body of ${title}` };
}

describe('SIGKILL during a mixed write load', () => {
  it('keeps every acknowledged write, with no partial document and no version gap or duplicate', async () => {
    server = await startServerProcess(env);
    const sync = await api('PUT', '/api/v1/schema/sync', syncBody());
    expect(sync.status, sync.text).toBe(200);

    const acked = new Map<string, Acked>();
    const figures = { requests: 0, acknowledged: 0, failedInFlight: 0, errors: 0 };
    let stop = false;
    const send = async (run: () => Promise<TestResponse>): Promise<TestResponse | null> => {
      figures.requests += 1;
      try {
        const response = await run();
        if (response.status < 300) figures.acknowledged += 1;
        else figures.errors += 1;
        return response;
      } catch {
        figures.failedInFlight += 1; // the connection died with the server: outcome unknown
        return null;
      }
    };
    const worker = async (w: number) => {
      let serial = 0;
      while (!stop) {
        serial += 1;
        const title = `w${w}-${serial}-created`;
        const created = await send(() =>
          api(
            'POST',
            '/api/v1/content',
            { type: 'post', path: `posts/kill-${w}-${serial}`, ...content(title) },
            {
              'x-cms-schema-hash': BLOG_SCHEMA_HASH,
            },
          ),
        );
        if (created?.status !== 201) continue;
        const entry: Acked = { documentId: created.body.data.documentId, revision: 1, title, versions: [] };
        acked.set(entry.documentId, entry);
        for (let step = 1; step <= 3 && !stop; step += 1) {
          const published = await send(() => api('POST', `/api/v1/content/${entry.documentId}/publish`));
          if (published?.status === 200) entry.versions.push(published.body.data.version);
          const nextTitle = `w${w}-${serial}-rev${step}`;
          const updated = await send(() =>
            api(
              'PUT',
              `/api/v1/content/${entry.documentId}`,
              { ...content(nextTitle), draftRevision: entry.revision },
              {
                'x-cms-schema-hash': BLOG_SCHEMA_HASH,
              },
            ),
          );
          if (updated?.status === 200) {
            entry.revision = updated.body.data.draftRevision;
            entry.title = nextTitle;
          }
        }
      }
    };
    const workers = Array.from({ length: WORKERS }, (_, w) => worker(w));
    while (figures.acknowledged < ACKS_BEFORE_KILL) await sleep(10);
    stop = true; // each worker's request in flight is the last it sends
    await server.kill('SIGKILL');
    await Promise.all(workers);

    server = await startServerProcess(env);
    let losses = 0;
    let partial = 0;
    let versionProblems = 0;
    for (const entry of acked.values()) {
      const draft = await api('GET', `/api/v1/content/${entry.documentId}?draft=true`);
      if (draft.status !== 200) {
        losses += 1;
        continue;
      }
      const document = draft.body.data;
      if (document.body !== `body of ${document.frontmatter.title}`) partial += 1;
      // The acknowledged revision is there (a later, unacknowledged one may have committed too).
      if (document.draftRevision < entry.revision) losses += 1;
      if (document.draftRevision === entry.revision && document.frontmatter.title !== entry.title) losses += 1;
      const history = await api('GET', `/api/v1/content/${entry.documentId}/versions?order=asc&limit=100`);
      const numbers: number[] = history.body.data.map((version: { version: number }) => version.version);
      const consecutive = numbers.every((n, index) => n === index + 1);
      if (!consecutive || new Set(numbers).size !== numbers.length) versionProblems += 1;
      if (entry.versions.some((version) => !numbers.includes(version))) losses += 1;
    }
    printFigures('sigkill', testEngine(), {
      ...figures,
      documentsAcknowledged: acked.size,
      losses,
      partial,
      versionProblems,
    });
    expect(acked.size).toBeGreaterThan(0);
    expect({ losses, partial, versionProblems }).toEqual({ losses: 0, partial: 0, versionProblems: 0 });
  });
});
