-- Search that finds code and titles (docs/performance.md "Search"):
-- * cms_search_parts(text) gives the parts of the compound identifiers of a text: dotted names and
--   paths (`document.querySelector` -> `document querySelector`) and camelCase words (`querySelector`
--   -> `query Selector`). PostgreSQL's parser keeps `document.querySelector(` as one token, so a search
--   for `querySelector` missed most pages about it; the parts are indexed besides the tokens.
-- * The searchable vector weighs the title A, the other frontmatter text B, the body C and the
--   identifier parts D. storage/repositories/search.repository.ts repeats the expressions below
--   verbatim (the planner uses an expression index only for the identical expression). They call the
--   functions directly rather than through a wrapper function: index builds run with a search_path of
--   pg_catalog only (PostgreSQL 17, as in PGlite), where a wrapper could not find them.
create function cms_search_parts(t text) returns text
language sql immutable strict parallel safe
as $$
  select coalesce(string_agg(
    regexp_replace(m[1], '[.:/]+', ' ', 'g') || ' ' ||
    regexp_replace(regexp_replace(m[1], '([[:lower:][:digit:]])([[:upper:]])', '\1 \2', 'g'), '[.:/]+', ' ', 'g'),
    ' '), '')
  from regexp_matches(t, '([[:alnum:]]+(?:[.:/][[:alnum:]]+)+|[[:alnum:]]*[[:lower:][:digit:]][[:upper:]][[:alnum:]]*)', 'g') m
$$;

drop index documents_search_published;
drop index documents_search_draft;

create index documents_search_published on documents using gin ((
  setweight(to_tsvector('simple'::regconfig, coalesce(published_frontmatter ->> 'title', '')), 'A')
  || setweight(to_tsvector('simple'::regconfig, coalesce(cms_search_text(published_frontmatter), '')), 'B')
  || setweight(to_tsvector('simple'::regconfig, coalesce(published_body, '')), 'C')
  || setweight(to_tsvector('simple'::regconfig, cms_search_parts(coalesce(cms_search_text(published_frontmatter), '') || ' ' || coalesce(published_body, ''))), 'D')
))
  where not is_deleted and published_version is not null;

create index documents_search_draft on documents using gin ((
  setweight(to_tsvector('simple'::regconfig, coalesce(draft_frontmatter ->> 'title', '')), 'A')
  || setweight(to_tsvector('simple'::regconfig, coalesce(cms_search_text(draft_frontmatter), '')), 'B')
  || setweight(to_tsvector('simple'::regconfig, coalesce(draft_body, '')), 'C')
  || setweight(to_tsvector('simple'::regconfig, cms_search_parts(coalesce(cms_search_text(draft_frontmatter), '') || ' ' || coalesce(draft_body, ''))), 'D')
))
  where not is_deleted;
