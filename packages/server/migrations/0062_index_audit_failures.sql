-- The audit list's outcome filter (`GET /api/v1/audit?outcome=failure`) had no index of its own: a page of
-- failures walked the chain's primary key newest first and dropped every success, 2,450 rows and 240
-- buffers for 51 failures at 10 million entries with one in fifty failing (docs/benchmarks.md "Audit log").
-- Failures are few, so a partial index over them alone is small and costs nothing on a successful write;
-- `outcome = 'success'` pages are nearly every entry and walk the primary key as before.
create index audit_entries_not_success on audit_entries (chain_key, outcome, seq) where outcome <> 'success';
