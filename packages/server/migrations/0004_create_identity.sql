-- Identity and access: users, per-project grants, server-side sessions, invites, the first-admin
-- setup token and the login backoff counters (decisions.md §4, §5; docs/access-control.md).

-- Emails are stored trimmed and lowercased by the service, so a plain unique constraint suffices.
create table users (
  id uuid primary key,
  email text not null,
  role text not null check (role in ('admin', 'editor', 'author', 'viewer')),
  -- argon2id PHC string; null for a user who has no password yet (created without one).
  password_hash text,
  disabled_at timestamptz,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  constraint users_email_key unique (email)
);

-- A role in one project, for every environment (environment_id null, "*" on the wire) or one.
-- Deleting the project or the environment deletes the grant with it.
create table user_grants (
  user_id uuid not null references users (id) on delete cascade,
  project_id uuid not null references projects (id) on delete cascade,
  environment_id uuid references environments (id) on delete cascade,
  role text not null check (role in ('admin', 'editor', 'author', 'viewer')),
  created_at timestamptz not null default now(),
  constraint user_grants_target_key unique nulls not distinct (user_id, project_id, environment_id)
);

create index user_grants_project on user_grants (project_id);

-- Only the SHA-256 of the session token is stored; the public id names a session in listings.
create table sessions (
  id uuid primary key,
  token_hash bytea not null,
  user_id uuid not null references users (id) on delete cascade,
  created_at timestamptz not null,
  last_seen_at timestamptz not null,
  absolute_expires_at timestamptz not null,
  user_agent text,
  ip_address text,
  constraint sessions_token_hash_key unique (token_hash)
);

create index sessions_user on sessions (user_id);

-- Single-use invitations; the token is stored as its SHA-256.
create table invites (
  id uuid primary key,
  token_hash bytea not null,
  email text not null,
  role text not null check (role in ('admin', 'editor', 'author', 'viewer')),
  project_id uuid references projects (id) on delete cascade,
  created_by uuid,
  expires_at timestamptz not null,
  accepted_at timestamptz,
  created_at timestamptz not null default now(),
  constraint invites_token_hash_key unique (token_hash)
);

create index invites_email on invites (email);

-- First-admin setup tokens (decisions.md §1), valid while no user exists.
create table setup_tokens (
  token_hash bytea primary key,
  created_at timestamptz not null default now()
);

-- Login failure counters, one row per email or client address (keyed by a SHA-256, so submitted
-- text is not kept). Shared by every process, and kept across restarts.
create table login_throttle (
  key_hash bytea primary key,
  failures integer not null,
  last_failure_at timestamptz not null
);

create index login_throttle_last_failure on login_throttle (last_failure_at);
