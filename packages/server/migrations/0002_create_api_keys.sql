-- API keys: only a SHA-256 of the secret is stored (decisions.md §5).
create table api_keys (
  id uuid primary key,
  kind text not null check (kind in ('live', 'cli', 'preview')),
  label text not null,
  prefix text not null,
  secret_hash bytea not null,
  scopes text[] not null,
  context_allowlist jsonb not null default '[]'::jsonb,
  created_by uuid,
  expires_at timestamptz,
  revoked_at timestamptz,
  last_used_at timestamptz,
  created_at timestamptz not null default now(),
  constraint api_keys_secret_hash_key unique (secret_hash)
);
