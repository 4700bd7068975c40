-- Releases (docs/api.md "Releases"): a named set of documents of one environment, each with an
-- action, published together in one transaction, now or at `scheduled_at` (a UTC instant; `time_zone`
-- is the IANA zone it was chosen in, kept for display). `publishing` is never committed: publishing
-- changes the status in the transaction that writes the documents.
create table releases (
  id uuid primary key,
  project_id uuid not null references projects (id) on delete cascade,
  environment_id uuid not null references environments (id) on delete cascade,
  title text not null,
  description text,
  status text not null default 'open'
    check (status in ('open', 'scheduled', 'publishing', 'published', 'failed', 'reverted')),
  scheduled_at timestamptz,
  time_zone text,
  scheduled_by text,
  created_by text not null,
  created_at timestamptz not null,
  published_at timestamptz,
  revert_of uuid references releases (id) on delete set null,
  reverted_by uuid references releases (id) on delete set null,
  check ((status = 'scheduled') = (scheduled_at is not null))
);
create index releases_environment on releases (environment_id, created_at desc);
-- The due-release poller's scan: only scheduled releases, soonest first.
create index releases_due on releases (scheduled_at) where status = 'scheduled';

create table release_items (
  release_id uuid not null references releases (id) on delete cascade,
  document_id uuid not null references documents (id) on delete cascade,
  project_id uuid not null references projects (id) on delete cascade,
  environment_id uuid not null references environments (id) on delete cascade,
  action text not null check (action in ('publish', 'unpublish')),
  -- The draft revision when the item was added: a later one means the draft changed since.
  draft_revision integer not null,
  added_at timestamptz not null,
  -- Why the item kept the last publish attempt from going out (status `failed`).
  error text,
  -- Set when the release goes out: the published version before, and the one it left (null: unpublished).
  previous_version integer,
  published_version integer,
  position integer not null,
  primary key (release_id, document_id)
);
create index release_items_document on release_items (document_id);
