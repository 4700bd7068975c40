-- A schema's fields are a JSON object whose key order is the order the config declares them in
-- (the Studio's form, the keys of a file `cms pull` writes). jsonb sorts object keys (shortest
-- first), so that order was lost at every sync: `title, slug, tags` came back as `slug, tags, title`.
-- json keeps the text as sent. Nothing queries inside these columns, so json (no operators, no
-- equality) costs nothing. Rows stored before this migration keep the sorted order until the next
-- sync, which stores the declared order even when the schema hash is unchanged (the hash ignores
-- key order: RFC 8785 sorts keys).
alter table schema_registry
  alter column resolved_schema type json using resolved_schema::json,
  alter column raw_config_snapshot type json using raw_config_snapshot::json;

alter table schema_sync_history
  alter column resolved_schema type json using resolved_schema::json,
  alter column raw_config_snapshot type json using raw_config_snapshot::json;
