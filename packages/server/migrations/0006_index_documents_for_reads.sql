-- Content reads (GET /content, /content/overview): every list sort is one index scan that stops
-- after the page, and exact totals are counted from the indexes alone. Plans at 100k documents
-- per environment: docs/performance.md "Content reads".

-- Lists of every document of a type (drafts, the trash with isDeleted=true), one index per sort.
-- The included columns are the list filters, so counts and the overview never visit the table.
create index documents_read_created on documents (environment_id, type, created_at, id)
  include (project_id, is_deleted, published_version, has_unpublished_changes, locale);
create index documents_read_updated on documents (environment_id, type, updated_at, id)
  include (project_id, is_deleted, published_version, has_unpublished_changes, locale);
create index documents_read_path on documents (environment_id, type, path, id)
  include (project_id, is_deleted, published_version, has_unpublished_changes, locale);

-- Published lists (the public read path): only live, published rows, so a page never skips
-- drafts however few documents are published.
create index documents_published_created on documents (environment_id, type, created_at, id)
  include (project_id, has_unpublished_changes, locale) where not is_deleted and published_version is not null;
create index documents_published_updated on documents (environment_id, type, updated_at, id)
  include (project_id, has_unpublished_changes, locale) where not is_deleted and published_version is not null;
create index documents_published_path on documents (environment_id, type, path, id)
  include (project_id, has_unpublished_changes, locale) where not is_deleted and published_version is not null;

-- `slug=` filters: the draft slug for draft reads, the published slug for published reads.
create index documents_draft_slug on documents (environment_id, type, (draft_frontmatter ->> 'slug'))
  where not is_deleted;
create index documents_published_slug on documents (environment_id, type, (published_frontmatter ->> 'slug'))
  where not is_deleted and published_version is not null;
