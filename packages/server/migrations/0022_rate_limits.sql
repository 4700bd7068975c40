-- General rate limits (docs/operations.md "Rate limits"): one fixed-window counter per client address
-- and route, shared by every server process on the database. The key is a SHA-256 hash of the route
-- and the client key (an IPv4 address or an IPv6 /64), never the address itself.
create table rate_limit_hits (
  key_hash bytea primary key,
  window_start timestamptz not null,
  hits integer not null
);
create index rate_limit_hits_window_start on rate_limit_hits (window_start);
