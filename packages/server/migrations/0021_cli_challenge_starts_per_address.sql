-- Starting a command-line sign-in needs no credentials, so each client address may start only so
-- many challenges in 10 minutes (docs/access-control.md "Command-line sign-in"): without a bound,
-- anyone could fill this table. The address is kept as a hash of its client key (an IPv4 address,
-- or an IPv6 /64), as the login counters keep it. Challenges started before this migration have none.
alter table cli_challenges add column client_key bytea;
create index cli_challenges_client_key_created_at on cli_challenges (client_key, created_at);
