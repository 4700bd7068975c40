-- Exact list totals without counting rows: live and published documents per environment, type and
-- locale, kept by triggers in the transaction of every change (docs/performance.md "List totals").
-- No foreign keys: rows of a deleted environment are removed by its cascade below, never re-created.
create table document_counts (
  project_id uuid not null,
  environment_id uuid not null,
  type text not null,
  locale text not null,
  live integer not null default 0,
  published integer not null default 0,
  primary key (environment_id, type, locale)
);

create function document_counts_add(p uuid, e uuid, t text, l text, d_live integer, d_published integer)
returns void language plpgsql as $$
begin
  if d_live = 0 and d_published = 0 then
    return;
  end if;
  insert into document_counts as c (project_id, environment_id, type, locale, live, published)
  values (p, e, t, l, d_live, d_published)
  on conflict (environment_id, type, locale)
  do update set live = c.live + excluded.live, published = c.published + excluded.published;
end $$;

create function document_counts_track() returns trigger language plpgsql as $$
begin
  if tg_op in ('UPDATE', 'DELETE') then
    -- Rows removed by an environment's cascade need no bookkeeping: its counts go with it.
    if tg_op = 'DELETE' and not exists (select 1 from environments where id = old.environment_id) then
      delete from document_counts where environment_id = old.environment_id;
      return null;
    end if;
    perform document_counts_add(old.project_id, old.environment_id, old.type, old.locale,
      -(not old.is_deleted)::integer, -(not old.is_deleted and old.published_version is not null)::integer);
  end if;
  if tg_op in ('INSERT', 'UPDATE') then
    perform document_counts_add(new.project_id, new.environment_id, new.type, new.locale,
      (not new.is_deleted)::integer, (not new.is_deleted and new.published_version is not null)::integer);
  end if;
  return null;
end $$;

create trigger documents_counts_insert_delete after insert or delete on documents
  for each row execute function document_counts_track();

-- Most updates (draft edits, republishing) change no count and skip the trigger entirely.
create trigger documents_counts_update after update on documents
  for each row when (
    old.is_deleted is distinct from new.is_deleted
    or (old.published_version is null) is distinct from (new.published_version is null)
    or old.type is distinct from new.type
    or old.locale is distinct from new.locale
    or old.environment_id is distinct from new.environment_id
  ) execute function document_counts_track();

insert into document_counts (project_id, environment_id, type, locale, live, published)
select project_id, environment_id, type, locale,
  count(*) filter (where not is_deleted), count(*) filter (where not is_deleted and published_version is not null)
from documents group by project_id, environment_id, type, locale;
