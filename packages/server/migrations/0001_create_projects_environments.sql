-- Tenancy: a project owns everything; environments hold independent content within it.
create table projects (
  id uuid primary key,
  slug text not null,
  name text not null,
  settings jsonb not null default '{}'::jsonb,
  created_at timestamptz not null default now(),
  constraint projects_slug_key unique (slug)
);

create table environments (
  id uuid primary key,
  project_id uuid not null references projects (id) on delete cascade,
  name text not null,
  extends_id uuid references environments (id) on delete restrict,
  is_default boolean not null default false,
  created_at timestamptz not null default now(),
  constraint environments_project_name_key unique (project_id, name)
);

create unique index environments_one_default on environments (project_id) where is_default;
