-- The audit log (docs/audit.md): one row per mutating action and sign-in event, written in the
-- change's own transaction. Entries form one hash chain per project (`chain_key` is the project's id,
-- or 'instance' for what happens outside any project: sign-in, users, keys, projects). `seq` numbers
-- a chain's entries 1, 2, 3...; each entry's `hash` covers its fields and `prev_hash`, the hash of the
-- entry before it, so an edited, inserted or deleted entry breaks the chain (`GET /api/v1/audit/verify`).
-- No foreign keys: the log outlives the projects, keys and users it names.
create table audit_entries (
  chain_key text not null,
  seq bigint not null,
  id uuid not null unique,
  at timestamptz not null,
  project_id uuid,
  actor_type text not null,
  actor_id text not null,
  actor_label text,
  action text not null,
  target jsonb not null,
  environment text,
  type_name text,
  document_id text,
  outcome text not null check (outcome in ('success', 'failure', 'denied')),
  request_id text,
  ip text,
  changes jsonb,
  prev_hash text not null,
  hash text not null,
  primary key (chain_key, seq)
);

-- Keyset pages walk (chain_key, seq) downwards; each filter has its own (chain_key, x, seq) index, so a
-- filtered page reads only its rows, newest first, at any size of the log.
create index audit_entries_actor on audit_entries (chain_key, actor_id, seq);
create index audit_entries_action on audit_entries (chain_key, action, seq);
create index audit_entries_document on audit_entries (chain_key, document_id, seq) where document_id is not null;
create index audit_entries_type on audit_entries (chain_key, type_name, seq) where type_name is not null;
-- Time filters and retention (oldest first, in batches).
create index audit_entries_at on audit_entries (chain_key, at);

-- The head of each chain: its last entry's number and hash. An append locks this row (FOR UPDATE) until
-- its transaction ends, so concurrent writers of one project take turns and the chain never forks.
-- `pruned_through` is the last number retention removed: verification expects the chain to start after it.
create table audit_chain_heads (
  chain_key text primary key,
  last_seq bigint not null default 0,
  last_hash text not null default '',
  pruned_through bigint not null default 0,
  pruned_hash text not null default ''
);
