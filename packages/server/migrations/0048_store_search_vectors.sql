-- Search vectors kept in columns (docs/performance.md "Search", docs/benchmarks.md "Releases").
-- Migration 0031 indexed two expressions over the row. PostgreSQL computes every index expression of a
-- new row version, so each publish computed both vectors (four to_tsvector calls and the identifier
-- split each) although a publish changes no draft and publishes text whose vector the draft already
-- has: 10,000 documents published by one release spent about four fifths of the statement on them.
-- Now each side's vector is a column, written by a trigger only when that side's text changes; a side
-- that becomes the same text as the draft (a publish) takes the draft's vector as it is. The
-- indexes cover the columns; search.repository.ts searches them. The expression is 0031's, unchanged.
alter table documents add column draft_search tsvector, add column published_search tsvector;

-- Both functions keep the search_path they were created with, so a restore that runs with an empty one
-- (pg_dump's) still finds cms_search_text and cms_search_parts.
create function cms_search_vector(frontmatter jsonb, body text) returns tsvector
language sql immutable parallel safe set search_path from current
as $$
  select setweight(to_tsvector('simple'::regconfig, coalesce(frontmatter ->> 'title', '')), 'A')
  || setweight(to_tsvector('simple'::regconfig, coalesce(cms_search_text(frontmatter), '')), 'B')
  || setweight(to_tsvector('simple'::regconfig, coalesce(body, '')), 'C')
  || setweight(to_tsvector('simple'::regconfig, cms_search_parts(coalesce(cms_search_text(frontmatter), '') || ' ' || coalesce(body, ''))), 'D')
$$;

create function documents_search_vectors() returns trigger language plpgsql set search_path from current as $$
begin
  if tg_op = 'INSERT' or new.draft_frontmatter is distinct from old.draft_frontmatter
     or new.draft_body is distinct from old.draft_body then
    new.draft_search := cms_search_vector(new.draft_frontmatter, new.draft_body);
  end if;
  if tg_op = 'INSERT' or new.published_frontmatter is distinct from old.published_frontmatter
     or new.published_body is distinct from old.published_body then
    if new.published_frontmatter is not distinct from new.draft_frontmatter
       and new.published_body is not distinct from new.draft_body then
      new.published_search := new.draft_search;
    else
      new.published_search := cms_search_vector(new.published_frontmatter, new.published_body);
    end if;
  end if;
  return new;
end $$;

drop index documents_search_published;
drop index documents_search_draft;

update documents set draft_search = cms_search_vector(draft_frontmatter, draft_body),
  published_search = cms_search_vector(published_frontmatter, published_body);

create trigger documents_search_vectors before insert or update on documents
  for each row execute function documents_search_vectors();

create index documents_search_published on documents using gin (published_search)
  where not is_deleted and published_version is not null;
create index documents_search_draft on documents using gin (draft_search) where not is_deleted;
