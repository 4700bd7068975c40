-- Command-line device challenges get a user code and can be denied (docs/access-control.md
-- "Command-line sign-in"). The user code is not a secret: the command line prints it and the
-- authorize page shows it before approving, so the user can tell their own request from another's.
-- A denied challenge answers its waiting command at once instead of leaving it until expiry.
-- Challenges started before this migration get a placeholder code: they expire within 10 minutes.
alter table cli_challenges add column user_code text not null default '';
alter table cli_challenges alter column user_code drop default;
alter table cli_challenges add column denied_at timestamptz;
alter table cli_challenges drop constraint cli_challenges_state_check;
alter table cli_challenges add constraint cli_challenges_state_check
  check (state in ('pending', 'authorized', 'exchanged', 'denied'));
