-- Schema registry: one synced schema per environment; every sync kept for audit.
create table schema_registry (
  environment_id uuid primary key references environments (id) on delete cascade,
  project_id uuid not null references projects (id) on delete cascade,
  schema_hash text not null,
  resolved_schema jsonb not null,
  raw_config_snapshot jsonb not null,
  synced_at timestamptz not null default now(),
  synced_by text not null
);

create table schema_sync_history (
  id uuid primary key,
  project_id uuid not null references projects (id) on delete cascade,
  environment_id uuid not null references environments (id) on delete cascade,
  schema_hash text not null,
  resolved_schema jsonb not null,
  raw_config_snapshot jsonb not null,
  synced_at timestamptz not null default now(),
  synced_by text not null
);
create index schema_sync_history_env on schema_sync_history (environment_id, synced_at desc);

-- Documents: the editable draft and a copy of the published snapshot on one row, so a read is one
-- indexed lookup; every published snapshot also lives, immutable, in document_versions.
create table documents (
  id uuid primary key,
  project_id uuid not null references projects (id) on delete cascade,
  environment_id uuid not null references environments (id) on delete cascade,
  translation_group_id uuid not null,
  type text not null,
  path text not null,
  locale text not null,
  format text not null check (format in ('md', 'mdx')),
  draft_frontmatter jsonb not null,
  draft_body text not null default '',
  draft_revision integer not null default 1,
  version integer not null default 0,
  published_version integer,
  published_frontmatter jsonb,
  published_body text,
  published_at timestamptz,
  has_unpublished_changes boolean not null default true,
  is_deleted boolean not null default false,
  deleted_at timestamptz,
  deleted_by text,
  created_by text not null,
  updated_by text not null,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);

-- A path (and a locale within a translation group) is taken only by non-deleted documents.
create unique index documents_path_locale_key on documents (environment_id, path, locale) where not is_deleted;
create unique index documents_group_locale_key on documents (environment_id, translation_group_id, locale) where not is_deleted;
create index documents_group on documents (environment_id, translation_group_id);

create table document_versions (
  document_id uuid not null references documents (id) on delete cascade,
  version integer not null,
  project_id uuid not null,
  environment_id uuid not null,
  frontmatter jsonb not null,
  body text not null,
  published_at timestamptz not null default now(),
  published_by text not null,
  change_summary text,
  -- Concurrent publishes can never produce the same version twice.
  primary key (document_id, version)
);
