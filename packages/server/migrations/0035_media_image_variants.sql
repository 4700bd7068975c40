-- Transformed images kept in media storage (docs/api.md "Image transforms"): one row per stored
-- variant, keyed by its asset and the hash of its normalised parameters. A variant's row is written
-- after its object is stored; deleting the asset (or its environment or project) cascades here, and
-- the trigger below queues each variant's object for the purge worker in the same transaction, as
-- migration 0012 does for the originals.
create table media_variants (
  media_id uuid not null references media (id) on delete cascade,
  variant text not null,
  project_id uuid not null,
  environment_id uuid not null,
  storage_key text not null,
  content_type text not null,
  size_bytes bigint not null check (size_bytes >= 0),
  created_at timestamptz not null default now(),
  primary key (media_id, variant)
);

create function media_variants_queue_purge() returns trigger language plpgsql as $$
begin
  insert into media_purge_queue (storage_key, project_id, environment_id)
  select storage_key, project_id, environment_id from removed_variants;
  return null;
end $$;

create trigger media_variants_queue_purge after delete on media_variants
  referencing old table as removed_variants
  for each statement execute function media_variants_queue_purge();
