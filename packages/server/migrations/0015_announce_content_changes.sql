-- Published reads are cached in each server process (docs/performance.md "Published read cache").
-- Every change that can alter what a published read returns is announced here, by triggers, so no
-- code path can forget it: in the transaction of the change, the environment is
--   1. added to the transaction-local setting `cms.content_changed` (a comma-separated list of
--      environment ids, `*` for every environment), which the server reads just before COMMIT to
--      invalidate its own cache before it acknowledges the write;
--   2. announced on `cms_invalidate` as `content:<environment id>` (`content` alone: every
--      environment), which PostgreSQL delivers to every other process when the transaction commits.
-- Each environment is announced once per transaction, however many rows change.

create function cms_content_changed(environment text) returns void language plpgsql as $$
declare
  changed text := coalesce(current_setting('cms.content_changed', true), '');
begin
  if position(environment || ',' in changed) > 0 or position('*,' in changed) > 0 then
    return;
  end if;
  perform set_config('cms.content_changed', changed || environment || ',', true);
  perform pg_notify('cms_invalidate', case when environment = '*' then 'content' else 'content:' || environment end);
end $$;

-- Any row change of a document: published content, publish state, deletion, and the columns every
-- published read shows (hasUnpublishedChanges, draftRevision, updatedAt, ...). A document changed
-- here also changes every read that resolves a reference to it, in the same environment.
create function cms_documents_changed() returns trigger language plpgsql as $$
begin
  if tg_op <> 'INSERT' then
    perform cms_content_changed(old.environment_id::text);
  end if;
  if tg_op = 'INSERT' or (tg_op = 'UPDATE' and new.environment_id <> old.environment_id) then
    perform cms_content_changed(new.environment_id::text);
  end if;
  return null;
end $$;

create trigger documents_announce_changes after insert or update or delete on documents
  for each row execute function cms_documents_changed();

-- A schema sync, and an environment changed or deleted, may change the reads of every environment
-- whose schema overlays it: they are rare, so they announce every environment.
create function cms_everything_changed() returns trigger language plpgsql as $$
begin
  perform cms_content_changed('*');
  return null;
end $$;

create trigger schema_registry_announce_changes after insert or update or delete on schema_registry
  for each statement execute function cms_everything_changed();

create trigger environments_announce_changes after update or delete on environments
  for each statement execute function cms_everything_changed();
