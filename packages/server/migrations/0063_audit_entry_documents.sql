-- The documents an entry changed when it changed more than one (a content batch, a release published,
-- scheduled or reverted): the entry's target names one document, so a document's activity
-- (`GET /api/v1/content/{documentId}/activity`) would miss the others. Like the filter columns of
-- audit_entries this is an index of the log, written with its entry in the same transaction and removed
-- with it by retention; the entry's own hash covers its target and changes, which count the documents.
create table audit_entry_documents (
  chain_key text not null,
  document_id text not null,
  seq bigint not null,
  environment text,
  primary key (chain_key, document_id, seq)
);
-- Retention removes an entry's rows by its number.
create index audit_entry_documents_seq on audit_entry_documents (chain_key, seq);
