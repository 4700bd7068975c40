-- The change feed (GET /api/v1/changes; docs/api.md "Change feed", docs/architecture.md "The change feed").
--
-- A transaction records each document change here, with its outbox event (same id), and leaves
-- `position` null: a number taken inside a transaction (a sequence, a timestamp) is not the order in
-- which transactions commit, so a reader that had passed it could never see a change committed later
-- with a smaller one. Positions are handed out after commit by the sequencer
-- (modules/domain-content/changes/change-sequencer.ts), one environment at a time under the lock of its
-- row in `change_feed_heads`: it numbers every committed change still without a position, after the
-- last number it gave, and commits. A change is in the feed only once numbered, and each numbering
-- commits before the next one starts, so positions become visible in increasing order: a reader that
-- has read up to N never misses a change numbered later.
create table content_changes (
  -- The outbox event's id: its webhook deliveries carry this change's cursor.
  id uuid primary key,
  -- Write order (within one transaction: the order of its changes); the sequencer numbers by it.
  seq bigint generated always as identity,
  project_id uuid not null references projects (id) on delete cascade,
  environment_id uuid not null references environments (id) on delete cascade,
  document_id uuid not null,
  type text not null,
  locale text not null,
  path text not null,
  -- created, updated, published, unpublished, deleted, restored: what `draft=true` readers see.
  change text not null,
  -- What readers without draft scope see (published, unpublished, deleted), or null when the change
  -- is invisible to them (a draft save; the deletion of a document that was never published).
  published_change text,
  version integer not null,
  -- Null until the sequencer numbers it; then its place in the environment's feed, and when.
  position bigint,
  at timestamptz
);

-- The sequencer's work: committed changes without a position, in write order.
create index content_changes_pending on content_changes (environment_id, seq) where position is null;
-- Draft readers' pages, and retention.
create unique index content_changes_feed on content_changes (environment_id, position) where position is not null;
-- Published readers' pages: only the changes they see.
create index content_changes_published_feed on content_changes (environment_id, position)
  where position is not null and published_change is not null;

-- One row per environment whose feed has started: the last position handed out (its row lock
-- serialises the sequencer), and the last position removed by retention (a cursor before it has
-- missed changes: CHANGES_CURSOR_EXPIRED).
create table change_feed_heads (
  environment_id uuid primary key references environments (id) on delete cascade,
  project_id uuid not null references projects (id) on delete cascade,
  last_position bigint not null default 0,
  pruned_through bigint not null default 0
);
