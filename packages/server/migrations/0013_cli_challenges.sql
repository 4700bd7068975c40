-- Command-line device challenges (interface.md "Command-line device challenge", decisions.md §5).
-- The challenge id and the one-time code are secrets, so only their hashes are stored; any server
-- process can finish a flow another one started.
create table cli_challenges (
  id_hash bytea primary key,
  project text not null,
  environment text not null,
  -- Loopback address the Studio sends the browser to after authorizing, or null.
  callback_url text,
  state text not null default 'pending' check (state in ('pending', 'authorized', 'exchanged')),
  -- HMAC of the code under CMS_SECRET, set on authorize; the code itself is never stored.
  code_hash bytea,
  authorized_by uuid references users (id) on delete cascade,
  authorized_at timestamptz,
  failed_attempts integer not null default 0,
  exchanged_at timestamptz,
  created_at timestamptz not null,
  expires_at timestamptz not null
);

create index cli_challenges_expires_at on cli_challenges (expires_at);
