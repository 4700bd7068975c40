-- The outbox: every state change records its event here in the same transaction (decisions.md §6).
-- The webhook worker reads it after commit; rows are kept as the event history.
create table outbox_events (
  id uuid primary key,
  seq bigint generated always as identity,
  project_id uuid not null references projects (id) on delete cascade,
  environment_id uuid not null references environments (id) on delete cascade,
  type text not null,
  payload jsonb not null,
  created_at timestamptz not null default now(),
  dispatched_at timestamptz
);

create unique index outbox_events_seq on outbox_events (seq);
create index outbox_events_undispatched on outbox_events (seq) where dispatched_at is null;
