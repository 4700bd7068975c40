-- Full-text search (GET /api/v1/search): one GIN expression index per read side. The expressions are
-- copied verbatim in storage/repositories/document-search.repository.ts (PUBLISHED_VECTOR, DRAFT_VECTOR):
-- the planner uses an expression index only for the identical expression, so change both or neither.
-- Frontmatter string values weigh A, the body B; the 'simple' configuration (no stemming, no stop
-- words) because content is in any language. Plans: docs/performance.md "Search".
create index documents_search_published on documents using gin ((
  setweight(jsonb_to_tsvector('simple'::regconfig, coalesce(published_frontmatter, '{}'::jsonb), '["string"]'::jsonb), 'A')
  || setweight(to_tsvector('simple'::regconfig, coalesce(published_body, '')), 'B')
)) where not is_deleted and published_version is not null;

create index documents_search_draft on documents using gin ((
  setweight(jsonb_to_tsvector('simple'::regconfig, draft_frontmatter, '["string"]'::jsonb), 'A')
  || setweight(to_tsvector('simple'::regconfig, draft_body), 'B')
)) where not is_deleted;
