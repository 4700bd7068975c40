-- Content migrations (POST /api/v1/content/migrations, docs/api.md "Content migrations"): one row
-- per applied migration. The unique key makes a name apply once per environment, also when two
-- requests apply it at the same moment. Dry runs write nothing here.
create table content_migrations (
  id uuid primary key,
  project_id uuid not null references projects (id) on delete cascade,
  environment_id uuid not null references environments (id) on delete cascade,
  name text not null,
  type text not null,
  operations jsonb not null,
  matched integer not null,
  changed integer not null,
  applied_by text not null,
  applied_at timestamptz not null default now(),
  constraint content_migrations_environment_name_key unique (environment_id, name)
);
