-- Referrers (GET /content/{documentId}/referrers): which live documents hold a document's id in a
-- reference field. Reference fields are whatever the schema says, so the lookup is a containment
-- test per reference field (`draft_frontmatter @> '{"author": "<id>"}'`, `{"related": ["<id>"]}`),
-- answered by these indexes (jsonb_path_ops: small, and made for @>). Plans: docs/performance.md.
create index documents_draft_frontmatter_values on documents using gin (draft_frontmatter jsonb_path_ops)
  where not is_deleted;
create index documents_published_frontmatter_values on documents using gin (published_frontmatter jsonb_path_ops)
  where not is_deleted and published_version is not null;
