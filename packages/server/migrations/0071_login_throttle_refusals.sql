-- Throttled sign-in attempts (429) are written to the audit log once per counter and backoff window
-- (docs/audit.md "Sign-in events"): `refused_window` is the failure that opened the window the last
-- refusal fell in (the counter's `last_failure_at` then), `refused_count` how many refusals it has had.
-- A refusal in a new window writes an entry, naming how many the window before had.
alter table login_throttle
  add column refused_window timestamptz,
  add column refused_count integer not null default 0;
