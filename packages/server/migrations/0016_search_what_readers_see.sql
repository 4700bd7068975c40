-- Search indexes what a reader sees, not ids: a frontmatter string that is exactly a UUID (a reference
-- to another document or a media item) is left out of the searchable text, so a snippet never shows
-- one and a query for an id's first characters does not match every document that references it.
-- cms_search_text gives the frontmatter's other string values, in document order, as one text; the
-- search vectors and snippets of storage/repositories/document-search.repository.ts use it, and the
-- expressions below are copied there verbatim (the planner uses an expression index only for the
-- identical expression). Plans: docs/performance.md "Search".
create function cms_search_text(doc jsonb) returns text
language sql immutable strict parallel safe
as $$
  select coalesce(string_agg(s #>> '{}', ' '), '')
  from jsonb_path_query(doc, 'strict $.** ? (@.type() == "string" && !(@ like_regex "^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$" flag "i"))') s
$$;

drop index documents_search_published;
drop index documents_search_draft;

create index documents_search_published on documents using gin ((
  setweight(to_tsvector('simple'::regconfig, coalesce(cms_search_text(published_frontmatter), '')), 'A')
  || setweight(to_tsvector('simple'::regconfig, coalesce(published_body, '')), 'B')
)) where not is_deleted and published_version is not null;

create index documents_search_draft on documents using gin ((
  setweight(to_tsvector('simple'::regconfig, coalesce(cms_search_text(draft_frontmatter), '')), 'A')
  || setweight(to_tsvector('simple'::regconfig, draft_body), 'B')
)) where not is_deleted;
