-- Title matches of a search found through an index of their own (docs/performance.md "Search",
-- docs/benchmarks.md "Search at scale"). A search ranks a bounded set of candidates rather than every
-- match: the documents whose title matches (the vector's A weight, which ranks highest) and then the
-- first matches the body index finds. A title match cannot be picked out of the full vector's index
-- (the GIN index keeps no weights, so `word:A` rechecks every match), hence these two small indexes over
-- the title alone, split into words as the vector does (cms_search_parts adds the parts of identifiers).
-- The function keeps the search_path it was created with, so a restore with an empty one finds
-- cms_search_parts.
create function cms_search_title(frontmatter jsonb) returns tsvector
language sql immutable parallel safe set search_path from current
as $$
  select to_tsvector('simple'::regconfig, coalesce(frontmatter ->> 'title', ''))
  || to_tsvector('simple'::regconfig, coalesce(cms_search_parts(frontmatter ->> 'title'), ''))
$$;

create index documents_search_title_published on documents using gin (cms_search_title(published_frontmatter))
  where not is_deleted and published_version is not null;
create index documents_search_title_draft on documents using gin (cms_search_title(draft_frontmatter))
  where not is_deleted;
