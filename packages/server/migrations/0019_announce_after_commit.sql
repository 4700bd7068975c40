-- Announcing content changes without serialising commits (docs/performance.md "Published read cache").
-- Migration 0015's triggers NOTIFY `cms_invalidate` inside the writing transaction, and PostgreSQL
-- serialises the commits of notifying transactions on one lock. The server's transactions now set the
-- transaction-local `cms.announce_after_commit` to `on` at BEGIN: for them the triggers only record the
-- environment in `cms.content_changed`, and the server sends the announcement itself after COMMIT
-- (storage/content-announcer.ts: one batched pg_notify per process). Every other writer (an autocommit
-- statement, psql, another tool) still gets the NOTIFY from the trigger, so no change goes unannounced.

create or replace function cms_content_changed(environment text) returns void language plpgsql as $$
declare
  changed text := coalesce(current_setting('cms.content_changed', true), '');
begin
  if position(environment || ',' in changed) > 0 or position('*,' in changed) > 0 then
    return;
  end if;
  perform set_config('cms.content_changed', changed || environment || ',', true);
  if coalesce(current_setting('cms.announce_after_commit', true), '') <> 'on' then
    perform pg_notify('cms_invalidate', case when environment = '*' then 'content' else 'content:' || environment end);
  end if;
end $$;

-- The WHEN conditions skip the function once the row's environment is recorded, so a transaction that
-- changes many documents (a content migration, a promotion, a clone) pays one call per environment, not
-- one per row.
drop trigger documents_announce_changes on documents;

create trigger documents_record_insert after insert on documents for each row
  when (strpos(coalesce(current_setting('cms.content_changed', true), ''), new.environment_id::text || ',') = 0)
  execute function cms_documents_changed();

create trigger documents_record_update after update on documents for each row
  when (strpos(coalesce(current_setting('cms.content_changed', true), ''), old.environment_id::text || ',') = 0
    or new.environment_id <> old.environment_id)
  execute function cms_documents_changed();

create trigger documents_record_delete after delete on documents for each row
  when (strpos(coalesce(current_setting('cms.content_changed', true), ''), old.environment_id::text || ',') = 0)
  execute function cms_documents_changed();
