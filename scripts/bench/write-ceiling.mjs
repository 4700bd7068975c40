/**
 * The write-ceiling row of `npm run bench` (docs/benchmarks.md "Write ceiling"; issue #33 target 5):
 * `POST /api/v1/content` (create) against direct SQL doing the same INSERTs in one transaction per
 * document: the draft row, its outbox event, the audit chain head and entry (what a create writes;
 * no validation, no reference check, no HTTP). Both run with BENCH_WRITE_CONCURRENCY writers (default
 * 10) in alternating rounds of BENCH_WRITE_PER_ROUND creates (ceiling, API, ceiling, ...), since this
 * machine's load drifts; the ratio is the median of the rounds' API/ceiling rates.
 *
 *   BENCH_WRITE_ENGINE=postgres node scripts/bench/write-ceiling.mjs
 *
 * Needs `npm run build` first. Prints one JSON line.
 */
import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import pg from 'pg';
import { migrate } from '../../packages/server/dist/storage/migrate.js';
import { createBenchDatabase, disposeAll, probePostgres } from './databases.mjs';
import { startCms, stopAll } from './processes.mjs';
import { ENVIRONMENT, PROJECT, seedDatabase } from './seed.mjs';

const CONCURRENCY = Number(process.env.BENCH_WRITE_CONCURRENCY || 10);
const PER_ROUND = Number(process.env.BENCH_WRITE_PER_ROUND || 300);
const ROUNDS = Number(process.env.BENCH_WRITE_ROUNDS || 3);
const adminUrl = process.env.BENCH_DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/postgres';
const log = (message) => process.stderr.write(`[write-ceiling] ${message}\n`);

/** One create as the server writes it, in one transaction. */
async function sqlCreate(client, seed, n) {
  const id = randomUUID();
  const path = `posts/ceiling-${n}`;
  const frontmatter = JSON.stringify({ title: `Created ${n}`, slug: `ceiling-${n}`, author: seed.authorIds[0] });
  const body = `# Created ${n}\n\nWritten by the benchmark.`;
  const at = new Date().toISOString();
  await client.query('begin');
  try {
    await client.query(
      `insert into documents (id, project_id, environment_id, translation_group_id, type, path, locale, format,
         draft_frontmatter, draft_body, draft_source, draft_revision, version, has_unpublished_changes,
         created_by, updated_by, created_at, updated_at)
       values ($1, $2, $3, $4, 'post', $5, '__cms_default__', 'md', $6, $7, null, 1, 0, true, $8, $8, $9, $9)`,
      [id, seed.projectId, seed.environmentId, randomUUID(), path, frontmatter, body, seed.apiKeyId, at],
    );
    await client.query(
      'insert into outbox_events (id, project_id, environment_id, type, payload) values ($1, $2, $3, $4, $5)',
      [
        randomUUID(),
        seed.projectId,
        seed.environmentId,
        'content.created',
        JSON.stringify({ documentId: id, type: 'post', path, locale: '__cms_default__' }),
      ],
    );
    const head = await client.query(
      `insert into audit_chain_heads (chain_key, last_seq) values ($1, 1)
       on conflict (chain_key) do update set last_seq = audit_chain_heads.last_seq + 1 returning last_seq`,
      [seed.projectId],
    );
    const hash = randomUUID();
    await client.query(
      `with entry as (
         insert into audit_entries (chain_key, seq, id, at, project_id, actor_type, actor_id, actor_label, action, target,
           environment, type_name, document_id, outcome, request_id, ip, changes, prev_hash, hash)
         values ($1::text, $2, $3, $4, $1::text::uuid, 'apiKey', $5, 'benchmark', 'content.create', $6, $7, 'post', $8,
           'success', $9, '127.0.0.1', $10, '', $11))
       update audit_chain_heads set last_hash = $11 where chain_key = $1::text`,
      [
        seed.projectId,
        head.rows[0].last_seq,
        randomUUID(),
        at,
        seed.apiKeyId,
        JSON.stringify({ project: PROJECT, environment: ENVIRONMENT, type: 'post', documentId: id }),
        ENVIRONMENT,
        id,
        randomUUID(),
        JSON.stringify({ frontmatter: { added: ['title'], removed: [], changed: [] } }),
        hash,
      ],
    );
    await client.query('commit');
  } catch (error) {
    await client.query('rollback');
    throw error;
  }
}

/** Runs `count` calls of `one(n)` over CONCURRENCY workers; answers creates per second. */
async function rate(count, one) {
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next < count) {
        next += 1;
        await one(next);
      }
    }),
  );
  return count / ((performance.now() - started) / 1000);
}

async function main() {
  let engine = process.env.BENCH_WRITE_ENGINE ?? 'postgres';
  if (engine === 'postgres' && !(await probePostgres(adminUrl)).version) {
    log('PostgreSQL does not answer: this row needs it (PGlite admits one holder: the server)');
    process.stdout.write(`${JSON.stringify({ engine, error: 'PostgreSQL does not answer' })}\n`);
    return;
  }
  engine = 'postgres';
  const database = await createBenchDatabase(engine, { adminUrl, poolMax: CONCURRENCY });
  const db = await database.open();
  const seed = await seedDatabase(db, { posts: 1000, updatePoolSize: 1 });
  await migrate(db);
  await db.close();
  const server = await startCms(database, {
    logLevel: 'warn',
    nodeOptions: [],
    logFile: join(database.dataDir, 'server.log'),
  });
  const pool = new pg.Pool({ connectionString: database.databaseUrl ?? '', max: CONCURRENCY });
  const headers = {
    authorization: `Bearer ${seed.apiKey}`,
    'x-cms-project': PROJECT,
    'x-cms-environment': ENVIRONMENT,
    'content-type': 'application/json',
    'x-cms-schema-hash': seed.schemaHash,
  };
  let serial = 0;
  const apiCreate = async () => {
    serial += 1;
    const n = serial;
    const response = await fetch(`${server.url}/api/v1/content`, {
      method: 'POST',
      headers,
      body: JSON.stringify({
        type: 'post',
        path: `posts/api-${n}`,
        frontmatter: { title: `Created ${n}`, slug: `api-${n}`, author: seed.authorIds[0] },
        body: `# Created ${n}\n\nWritten by the benchmark.`,
      }),
    });
    const text = await response.text();
    if (response.status !== 201 && response.status !== 200)
      throw new Error(`POST /api/v1/content: ${response.status} ${text.slice(0, 300)}`);
  };
  let sqlSerial = 0;
  const ceilingCreate = async () => {
    sqlSerial += 1;
    const n = sqlSerial;
    const client = await pool.connect();
    try {
      await sqlCreate(client, seed, n);
    } finally {
      client.release();
    }
  };
  try {
    await rate(50, ceilingCreate);
    await rate(50, apiCreate);
    const rounds = [];
    for (let round = 0; round < ROUNDS; round += 1) {
      const ceiling = await rate(PER_ROUND, ceilingCreate);
      const api = await rate(PER_ROUND, apiCreate);
      rounds.push({
        ceiling: Math.round(ceiling),
        api: Math.round(api),
        ratio: Math.round((api / ceiling) * 100) / 100,
      });
      log(`round ${round + 1}: ceiling ${Math.round(ceiling)}/s, API ${Math.round(api)}/s`);
    }
    const ratios = rounds.map((r) => r.ratio).sort((a, b) => a - b);
    const middle = Math.floor(ratios.length / 2);
    const medianRatio =
      ratios.length % 2
        ? (ratios[middle] ?? 0)
        : Math.round((((ratios[middle - 1] ?? 0) + (ratios[middle] ?? 0)) / 2) * 100) / 100;
    process.stdout.write(
      `${JSON.stringify({ engine, concurrency: CONCURRENCY, perRound: PER_ROUND, rounds, medianRatio })}\n`,
    );
  } finally {
    await pool.end();
    await server.stop();
    await database.dispose();
  }
}

main().catch(async (error) => {
  log(error instanceof Error ? (error.stack ?? error.message) : String(error));
  await stopAll();
  await disposeAll();
  process.exit(1);
});
