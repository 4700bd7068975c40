-- The draft's source text as it was written (frontmatter as written, line endings, final newline),
-- so a pull gives back the pushed bytes. Null: no source kept (the canonical rendering applies).
-- Bytes (UTF-8), not text: a leading byte order mark is part of the file, and text decoding drops it.
alter table documents add column draft_source bytea;
