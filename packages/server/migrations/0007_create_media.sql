-- Media assets (interface.md "Media asset", "Media endpoints"; docs/api.md "Media").
-- The file lives in media storage under storage_key; this row is written only once the object is
-- stored, and a row without its object answers 404 rather than serving anything else.
create table media (
  id uuid primary key,
  project_id uuid not null references projects (id) on delete cascade,
  environment_id uuid not null references environments (id) on delete cascade,
  -- The name as uploaded (invisible characters removed), for listings, search and downloads.
  filename text not null,
  -- The sanitised last segment of storage_key and of the file url.
  storage_name text not null,
  storage_key text not null,
  -- Detected from the content at upload, never taken from the client.
  mime_type text not null,
  -- Derived from mime_type at upload and stored, so the category filter can use an index.
  category text not null check (category in ('image', 'video', 'audio', 'document', 'archive', 'other')),
  size_bytes bigint not null check (size_bytes >= 0),
  -- The principal's id: a user id, or an API key id for automation keys.
  uploaded_by text not null,
  uploaded_at timestamptz not null default now()
);

-- One index per sort, each ending in id (the tie-break), led by the environment every query filters
-- on; environment ids are unique across projects, so project_id needs no index column of its own.
create index media_env_uploaded_at on media (environment_id, uploaded_at, id);
create index media_env_filename on media (environment_id, (lower(filename) collate "C"), id);
create index media_env_size_bytes on media (environment_id, size_bytes, id);
-- Filters, with the default sort after them so a filtered first page is an index range scan.
create index media_env_category on media (environment_id, category, uploaded_at, id);
create index media_env_uploaded_by on media (environment_id, uploaded_by, uploaded_at, id);
-- The `q` search is `filename ilike '%...%'` inside one environment: no trigram index (pg_trgm is
-- not available on the embedded engine), so it scans that environment's rows (docs/api.md "Media").
