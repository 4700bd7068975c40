-- Single sign-on (decisions.md §5): sign-ins in progress, kept server-side so any process can finish
-- one another started, and the SAML assertions already used (replay).

-- One row per sign-in started with POST /auth/sso/{provider}, deleted when its answer comes back
-- (single use). `state_hash` is the SHA-256 of the OIDC `state` or of the SAML AuthnRequest id.
create table sso_requests (
  state_hash bytea primary key,
  provider text not null,
  kind text not null check (kind in ('oidc', 'saml')),
  -- OIDC only: the PKCE verifier and the nonce the id token must carry.
  code_verifier text,
  nonce text,
  created_at timestamptz not null,
  expires_at timestamptz not null
);

create index sso_requests_expires_at on sso_requests (expires_at);

-- SAML assertion ids seen, remembered until the assertion itself expires: a second use is a replay.
create table saml_assertions (
  provider text not null,
  assertion_id text not null,
  expires_at timestamptz not null,
  primary key (provider, assertion_id)
);

create index saml_assertions_expires_at on saml_assertions (expires_at);
