-- Media objects whose rows are gone, waiting for the purge worker to delete them from media storage
-- (docs/operations.md "Media storage"). A trigger fills the queue in the transaction that deletes
-- media rows, whatever deletes them: one asset, an environment's cascade, a project's cascade. So
-- no commit can remove a row without leaving its key here, and a crash or a storage outage after
-- the commit only delays the purge. No foreign keys: an entry outlives its project and environment.
create table media_purge_queue (
  id bigint generated always as identity primary key,
  storage_key text not null,
  project_id uuid not null,
  environment_id uuid not null,
  enqueued_at timestamptz not null default now(),
  -- Due time: a claim moves it past a lease, a failure past the retry backoff.
  next_attempt_at timestamptz not null default now(),
  attempts integer not null default 0,
  last_error text
);

create index media_purge_queue_due on media_purge_queue (next_attempt_at);
-- The single-asset delete removes its own entry once it has deleted the object.
create index media_purge_queue_storage_key on media_purge_queue (storage_key);

-- One statement-level trigger: an environment's cascade queues all its keys in one insert per statement.
create function media_queue_purge() returns trigger language plpgsql as $$
begin
  insert into media_purge_queue (storage_key, project_id, environment_id)
  select storage_key, project_id, environment_id from removed_media;
  return null;
end $$;

create trigger media_queue_purge after delete on media
  referencing old table as removed_media
  for each statement execute function media_queue_purge();
