-- Presence ("Also editing: <name>"): one row per person with a document open in the Studio, renewed
-- by a heartbeat and dead once `expires_at` passes. Rows live in the database, so every server
-- process answers the same (docs/studio.md "Presence"). Expired rows are swept by later heartbeats.
create table document_presence (
  document_id uuid not null references documents (id) on delete cascade,
  principal_id text not null,
  project_id uuid not null references projects (id) on delete cascade,
  environment_id uuid not null references environments (id) on delete cascade,
  name text not null,
  since timestamptz not null,
  expires_at timestamptz not null,
  primary key (document_id, principal_id)
);
create index document_presence_expiry on document_presence (expires_at);
