// Commit rate of concurrent one-row document inserts on PostgreSQL, with the content triggers' NOTIFY
// inside the transaction (what any writer outside the server's transactions gets) and with the server's
// way since migration 0019 (the triggers only record; one batched pg_notify per process after COMMIT).
// The two modes alternate in short rounds, so a loaded machine weighs on both alike.
//   DATABASE_URL=postgres://... node scripts/bench/write-commit-probe.mjs [seconds per round] [rounds]
import { randomUUID } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import pg from 'pg';

const url = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const seconds = Number(process.argv[2] ?? 3);
const rounds = Number(process.argv[3] ?? 3);
const writers = 10;
const database = `cms_probe_${process.pid}`;

const admin = new pg.Client({ connectionString: url });
await admin.connect();
await admin.query(`create database ${database}`);
const probeUrl = new URL(url);
probeUrl.pathname = `/${database}`;
const pool = new pg.Pool({ connectionString: probeUrl.toString(), max: writers + 1 });
try {
  const dir = new URL('../../packages/server/migrations/', import.meta.url);
  for (const file of readdirSync(dir)
    .filter((name) => name.endsWith('.sql'))
    .sort()) {
    await pool.query(readFileSync(new URL(file, dir), 'utf8'));
  }
  const project = randomUUID();
  const environment = randomUUID();
  await pool.query(`insert into projects (id, slug, name) values ($1, 'probe', 'Probe')`, [project]);
  await pool.query(`insert into environments (id, project_id, name, is_default) values ($1, $2, 'main', true)`, [
    environment,
    project,
  ]);
  const insert = `insert into documents (id, project_id, environment_id, translation_group_id, type, path, locale,
    format, draft_frontmatter, created_by, updated_by) values ($1, $2, $3, $1, 'post', $4, 'en', 'md', '{}', 'p', 'p')`;

  const run = async (afterCommit) => {
    let commits = 0;
    const pending = new Set();
    let sending = null;
    const announce = (payload) => {
      pending.add(payload);
      sending ??= (async () => {
        while (pending.size > 0) {
          const batch = [...pending];
          pending.clear();
          await pool.query('select pg_notify($1, p) from unnest($2::text[]) as p', ['cms_invalidate', batch]);
        }
        sending = null;
      })();
    };
    const until = Date.now() + seconds * 1000;
    await Promise.all(
      Array.from({ length: writers }, async () => {
        const client = await pool.connect();
        try {
          while (Date.now() < until) {
            await client.query(afterCommit ? "begin; set local cms.announce_after_commit = 'on'" : 'begin');
            const id = randomUUID();
            await client.query({ text: insert, values: [id, project, environment, id] });
            const [changed] = await client.query(`select current_setting('cms.content_changed', true) as c; commit`);
            if (afterCommit && changed.rows[0].c) announce(`content:${environment}`);
            commits += 1;
          }
        } finally {
          client.release();
        }
      }),
    );
    await sending;
    return commits / seconds;
  };

  const results = { inside: [], after: [] };
  for (let round = 0; round < rounds; round += 1) {
    results.inside.push(await run(false));
    results.after.push(await run(true));
  }
  const fmt = (list) => list.map((rate) => rate.toFixed(0)).join(', ');
  console.log(`${writers} writers, ${rounds} rounds of ${seconds} s each, commits/s`);
  console.log(`NOTIFY in the transaction (trigger): ${fmt(results.inside)}`);
  console.log(`NOTIFY after COMMIT (batched):       ${fmt(results.after)}`);
} finally {
  await pool.end();
  await admin.query(`drop database ${database}`);
  await admin.end();
}
