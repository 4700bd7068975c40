-- Which sign-in providers a user may use (docs/access-control.md "Who gets in"): a user created by a
-- provider is linked to it; an existing user is linked by email only through a provider that opts in
-- (`matchExistingUsersByEmail`). Users who signed in by SSO before this migration are not linked yet:
-- their provider must opt in once, or an admin links them by letting them sign in through one that does.
create table user_sso_links (
  user_id uuid not null references users (id) on delete cascade,
  provider text not null,
  linked_at timestamptz not null,
  primary key (user_id, provider)
);
