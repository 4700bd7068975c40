/**
 * What a content announcement costs the writing process at the storage layer (docs/benchmarks.md,
 * section 9, "Writes"): content transactions through `openPostgresDb` of each given worktree's build,
 * alternating, each recording one environment (what migration 0019's triggers do), with the process
 * listening on `cms_invalidate` as a server does. Prints, per round, transactions per second, the Node
 * process's CPU µs per transaction, and how many times per transaction the process's own handlers ran.
 *
 *   node scripts/bench/announce-probe.mjs ROUNDS SECONDS WRITERS WORKTREE...
 *   e.g. node scripts/bench/announce-probe.mjs 4 5 1 /work/wt/main-copy /work/wt/announce
 *
 * On a throwaway database (created and dropped here) holding only `content_announcements` and the
 * trigger function; BENCH_DATABASE_URL names the server (default postgres@127.0.0.1:5432). Each worktree
 * must be built (`node scripts/build.mjs`).
 */
import { randomBytes } from 'node:crypto';
import pg from 'pg';

const [rounds = '4', seconds = '5', writers = '1', ...worktrees] = process.argv.slice(2);
if (worktrees.length === 0) throw new Error('usage: announce-probe.mjs ROUNDS SECONDS WRITERS WORKTREE...');
const adminUrl = process.env.BENCH_DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/postgres';
const name = `cms_announce_probe_${randomBytes(4).toString('hex')}`;
const url = adminUrl.replace(/\/[^/]*$/, `/${name}`);

const SCHEMA = `
create table content_announcements (id bigint generated always as identity primary key,
  changed text not null, created_at timestamptz not null default clock_timestamp());
create function cms_content_changed(environment text) returns void language plpgsql as $$
declare
  changed text := coalesce(current_setting('cms.content_changed', true), '');
begin
  if position(environment || ',' in changed) > 0 or position('*,' in changed) > 0 then return; end if;
  perform set_config('cms.content_changed', changed || environment || ',', true);
  if coalesce(current_setting('cms.announce_after_commit', true), '') <> 'on' then
    perform pg_notify('cms_invalidate', case when environment = '*' then 'content' else 'content:' || environment end);
  end if;
end $$;`;

/** One round on one worktree's build. */
async function round(worktree) {
  const { openPostgresDb } = await import(`${worktree}/packages/server/dist/storage/postgres-db.js`);
  const db = await openPostgresDb({ connectionString: url, max: 10 });
  let handled = 0;
  await db.listen('cms_invalidate', () => {
    handled += 1;
  });
  let done = 0;
  let stop = false;
  const write = async (writer) => {
    while (!stop) {
      await db.transaction(async (tx) => {
        await tx.query('select cms_content_changed($1)', [`env${(done + writer) % 3}`]);
      });
      done += 1;
    }
  };
  const cpu = process.cpuUsage();
  const start = performance.now();
  setTimeout(() => {
    stop = true;
  }, Number(seconds) * 1000);
  await Promise.all(Array.from({ length: Number(writers) }, (_, writer) => write(writer)));
  const used = process.cpuUsage(cpu);
  const elapsed = (performance.now() - start) / 1000;
  await new Promise((resolve) => setTimeout(resolve, 300)); // the last echoes, if any
  await db.close();
  return {
    worktree,
    perSecond: Math.round(done / elapsed),
    cpuUsPerTransaction: Math.round((used.user + used.system) / done),
    handledPerTransaction: Number((handled / done).toFixed(2)),
  };
}

const admin = new pg.Client({ connectionString: adminUrl });
await admin.connect();
await admin.query(`create database ${name}`);
try {
  const setup = new pg.Client({ connectionString: url });
  await setup.connect();
  await setup.query(SCHEMA);
  await setup.end();
  for (let n = 1; n <= Number(rounds); n += 1) {
    for (const worktree of worktrees) console.log(JSON.stringify({ round: n, writers, ...(await round(worktree)) }));
  }
} finally {
  await admin.query(`drop database if exists ${name} with (force)`);
  await admin.end();
}
