-- The caller's own `X-Request-Id`, kept apart from `request_id` (docs/audit.md "An entry"): `request_id` is
-- the id the server made for the request, so no caller can make two entries claim one request by sending
-- the same header twice. Null when the caller sent none (or one the server does not keep).
alter table audit_entries add column client_request_id text;
