-- Webhooks (interface.md "Webhook", decisions.md §6; docs/webhooks.md).

-- A webhook belongs to one environment of a project. The secret is needed in clear to sign
-- (HMAC), so it is stored encrypted (AES-256-GCM, key derived from CMS_SECRET; see secret-box.ts).
-- Deleting a webhook keeps the row (deleted_at) so its cancelled deliveries stay in the log for
-- audits; the ciphertext is wiped then. `active_since` is when it last became active: events that
-- occurred before it (while inactive, or before it existed) are never queued for it.
create table webhooks (
  id uuid primary key,
  project_id uuid not null references projects (id) on delete cascade,
  environment_id uuid not null references environments (id) on delete cascade,
  url text not null,
  events text[] not null,
  active boolean not null default true,
  active_since timestamptz not null default now(),
  secret_ciphertext text,
  created_by text not null,
  updated_by text not null,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  deleted_at timestamptz
);

create index webhooks_environment on webhooks (project_id, environment_id, created_at) where deleted_at is null;

-- One delivery per event and webhook; its id is the X-CMS-Delivery header, stable across attempts
-- and redeliveries. `body` is the envelope serialized once at fan-out: every attempt signs and
-- sends these exact bytes. `attempts` counts the current round (a redelivery starts a new round).
-- A sender leases a row (locked_until, lease_token) so a crashed process's claim expires.
create table webhook_deliveries (
  id uuid primary key,
  project_id uuid not null references projects (id) on delete cascade,
  environment_id uuid not null references environments (id) on delete cascade,
  webhook_id uuid not null references webhooks (id) on delete cascade,
  event_id uuid not null,
  event_type text not null,
  body text not null,
  status text not null default 'pending' check (status in ('pending', 'succeeded', 'failed', 'cancelled')),
  round integer not null default 1,
  attempts integer not null default 0,
  next_attempt_at timestamptz,
  locked_until timestamptz,
  lease_token uuid,
  last_status_code integer,
  last_error text,
  last_duration_ms integer,
  last_attempt_at timestamptz,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  -- Two processes fanning out the same event can never queue it twice for one webhook.
  constraint webhook_deliveries_event_webhook_key unique (event_id, webhook_id)
);

-- The sender's claim: due pending deliveries, oldest due first.
create index webhook_deliveries_due on webhook_deliveries (next_attempt_at) where status = 'pending';
-- The delivery log of one webhook, newest first, and the bulk redelivery of failed ones.
create index webhook_deliveries_log on webhook_deliveries (webhook_id, created_at desc, id);
create index webhook_deliveries_failed on webhook_deliveries (webhook_id, created_at) where status = 'failed';

-- Every attempt ever made, for the log: outcome, timing and the start of the receiver's answer.
create table webhook_delivery_attempts (
  id bigint generated always as identity primary key,
  delivery_id uuid not null references webhook_deliveries (id) on delete cascade,
  project_id uuid not null references projects (id) on delete cascade,
  environment_id uuid not null references environments (id) on delete cascade,
  round integer not null,
  attempt integer not null,
  succeeded boolean not null,
  status_code integer,
  duration_ms integer not null,
  error text,
  response_snippet text,
  attempted_at timestamptz not null default now()
);

create index webhook_delivery_attempts_delivery on webhook_delivery_attempts (delivery_id, id);
