-- TOTP second factor (decisions.md §8, docs/access-control.md "Second factor"): one authenticator
-- per user, its secret sealed with a key derived from CMS_SECRET (it must be read back to compute
-- codes, so it cannot be a hash). `enabled_at` stays null until the user confirms a first code.
-- `last_used_step` is the RFC 6238 time step of the last accepted code: a code of that step or an
-- earlier one is refused, so an observed code cannot be replayed.
create table user_mfa (
  user_id uuid primary key references users (id) on delete cascade,
  totp_secret text not null,
  created_at timestamptz not null,
  enabled_at timestamptz,
  last_used_step bigint not null default 0
);

-- Recovery codes: shown once, stored as SHA-256 (each carries 120 random bits), each usable once.
create table user_mfa_recovery_codes (
  user_id uuid not null references users (id) on delete cascade,
  code_hash bytea not null,
  used_at timestamptz,
  primary key (user_id, code_hash)
);

-- A sign-in whose password was right and whose second step is pending: not a session, it grants
-- nothing but the right to send a code, for a few minutes and a few tries.
create table mfa_challenges (
  token_hash bytea primary key,
  user_id uuid not null references users (id) on delete cascade,
  created_at timestamptz not null,
  expires_at timestamptz not null,
  failures integer not null default 0
);
create index mfa_challenges_expires_at on mfa_challenges (expires_at);
