/**
 * SQL of cloning an environment: its documents and versions copied into a new, empty environment of
 * the same project with `insert ... select` (decisions.md §4, docs/api.md "Environments: clone and promote").
 */
import type { Queryable } from '../db.js';

/** Source and target of a copy inside one project. */
export interface CopyScope {
  projectId: string;
  sourceEnvironmentId: string;
  targetEnvironmentId: string;
}

/** How many rows a clone wrote. */
export interface CloneCounts {
  schemas: number;
  documents: number;
  versions: number;
}

/**
 * The id a source id ($3 = target environment id) gets in the copy: a UUID-shaped MD5 of the target
 * environment and the source id. Deterministic, so every statement of the clone (documents,
 * translation groups, versions, references) maps an old id to the same new one without a
 * mapping table or a round trip per row; unique because the target environment id is fresh.
 */
function copiedId(sourceIdText: string): string {
  return `(overlay(overlay(md5($3::uuid::text || ${sourceIdText}) placing '4' from 13) placing '8' from 17))::uuid`;
}

/**
 * A JSON string token holding exactly a UUID in `jsonb::text` output, with the character before
 * its opening quote (never a backslash for a real token: quotes inside strings are escaped).
 */
const UUID_TOKEN_PATTERN = '([^\\\\])"([0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12})"';

/**
 * `column` (jsonb) with every string value that is the id of a document of the source environment
 * replaced by that document's copy id ($4 = UUID_TOKEN_PATTERN). Splitting the text at the tokens
 * and joining the pieces with the (mapped) tokens keeps it one expression inside `insert ... select`.
 */
function remappedIds(column: string): string {
  return `(select string_agg(piece.text || coalesce(token.text, ''), '' order by piece.n)::jsonb
    from regexp_split_to_table(${column}::text, $4) with ordinality as piece (text, n)
    left join (
      select found.n, found.m[1] || '"' || case
          when exists (select 1 from documents ref where ref.project_id = $1 and ref.environment_id = $2
                       and ref.id = lower(found.m[2])::uuid)
          then ${copiedId('lower(found.m[2])')}::text
          else found.m[2] end || '"' as text
      from regexp_matches(${column}::text, $4, 'g') with ordinality as found (m, n)
    ) token on token.n = piece.n)`;
}

/** Copies every document (soft-deleted ones too) with new ids, mapped groups and references. */
async function copyDocuments(tx: Queryable, scope: CopyScope): Promise<number> {
  const result = await tx.query(
    `insert into documents (id, project_id, environment_id, translation_group_id, type, path, locale, format,
       draft_frontmatter, draft_body, draft_source, draft_revision, version, published_version, published_frontmatter,
       published_body, published_at, has_unpublished_changes, is_deleted, deleted_at, deleted_by,
       created_by, updated_by, created_at, updated_at)
     select ${copiedId('d.id::text')}, d.project_id, $3::uuid, ${copiedId('d.translation_group_id::text')}, d.type,
       d.path, d.locale, d.format, ${remappedIds('d.draft_frontmatter')}, d.draft_body, d.draft_source, d.draft_revision,
       d.version, d.published_version, ${remappedIds('d.published_frontmatter')}, d.published_body,
       d.published_at, d.has_unpublished_changes, d.is_deleted, d.deleted_at, d.deleted_by, d.created_by,
       d.updated_by, d.created_at, d.updated_at
     from documents d where d.project_id = $1 and d.environment_id = $2`,
    [scope.projectId, scope.sourceEnvironmentId, scope.targetEnvironmentId, UUID_TOKEN_PATTERN],
  );
  return result.rowCount;
}

/** Copies the version history of every document, pointing at the copies. */
async function copyVersions(tx: Queryable, scope: CopyScope): Promise<number> {
  const result = await tx.query(
    `insert into document_versions (document_id, version, project_id, environment_id, frontmatter, body,
       published_at, published_by, change_summary)
     select ${copiedId('v.document_id::text')}, v.version, v.project_id, $3::uuid, ${remappedIds('v.frontmatter')},
       v.body, v.published_at, v.published_by, v.change_summary
     from document_versions v where v.project_id = $1 and v.environment_id = $2`,
    [scope.projectId, scope.sourceEnvironmentId, scope.targetEnvironmentId, UUID_TOKEN_PATTERN],
  );
  return result.rowCount;
}

/**
 * Copies documents and versions from source to a new, empty target: two statements. The schema is
 * copied by the caller (the source's effective schema is a merge of layers, computed in the service).
 */
export async function copyEnvironmentContent(tx: Queryable, scope: CopyScope): Promise<Omit<CloneCounts, 'schemas'>> {
  const documents = await copyDocuments(tx, scope);
  const versions = await copyVersions(tx, scope);
  return { documents, versions };
}
