-- Content announcements that survive the process that owes them (docs/performance.md "Published read
-- cache", "Crash window"). Since migration 0019 the server NOTIFYs other processes of a content change
-- after COMMIT; a process that died between the two left the others serving old reads. Now the server's
-- transaction also writes one row here, in the same round trip as its COMMIT, holding what the
-- transaction changed (the value of `cms.content_changed`: environment ids, or `*`, comma-terminated).
-- After COMMIT the process NOTIFYs and deletes its row in one statement; any row still here a second
-- after it was written is an announcement nobody sent, and every listening process sweeps such rows:
-- it deletes them and NOTIFYs their environments in one transaction (storage/content-announcer.ts).
-- The table holds only announcements in flight: a few rows at most.

create table content_announcements (
  id bigint generated always as identity primary key,
  changed text not null,
  created_at timestamptz not null default clock_timestamp()
);
