/**
 * SQL fragments of a release preview read (`release=<id>`, docs/api.md "Release preview"): documents
 * as the site would show them once the release is out. A document the release publishes shows its
 * draft, one it unpublishes is absent, every other one shows its published content (or is absent
 * when it has none). The release id is checked to belong to the read's project and environment
 * before these run (`hasRelease`), and every fragment filters by both again.
 */
import type { Queryable } from '../db.js';
import { CONTENT_METADATA_COLUMNS, type Scope } from './document-row.js';

/**
 * What the release does to the document of alias `alias`: `'publish'`, `'unpublish'` or null, as
 * a scalar subquery (one primary-key lookup); `$1`/`$2` are the project and environment.
 */
export function releaseActionOf(alias: string, releaseParam: string): string {
  return `(select i.action from release_items i where i.release_id = ${releaseParam} and i.document_id = ${alias}.id
    and i.project_id = $1 and i.environment_id = $2)`;
}

/** True when the document is visible in the release's view, given its item action expression. */
export function visibleInRelease(alias: string, action: string): string {
  return `(case ${action} when 'publish' then true when 'unpublish' then false
    else ${alias}.published_version is not null end)`;
}

/** The frontmatter the release view shows of `alias` (null: absent), given its item action expression. */
export function releaseFrontmatter(alias: string, action: string): string {
  return `(case ${action} when 'publish' then ${alias}.draft_frontmatter when 'unpublish' then null
    else ${alias}.published_frontmatter end)`;
}

/** The body the release view shows of `alias`, given its item action expression. */
export function releaseBody(alias: string, action: string): string {
  return `(case ${action} when 'publish' then ${alias}.draft_body when 'unpublish' then null
    else ${alias}.published_body end)`;
}

/**
 * The select list of a release preview read from alias `d`: the draft of a document the release
 * publishes, else the published content; `action` is the item's action expression. Without
 * `withBody`, no body (a list of fields).
 */
export function releaseContentColumns(action: string, withBody = true): string {
  const body = withBody ? `, ${releaseBody('d', action)} as body` : '';
  return `${CONTENT_METADATA_COLUMNS}, ${releaseFrontmatter('d', action)} as frontmatter${body}`;
}

/** A join bringing the release item of `alias` in as `itemAlias` (no row: the release leaves it alone). */
export function releaseItemJoin(alias: string, itemAlias: string, releaseParam: string): string {
  return `left join release_items ${itemAlias} on ${itemAlias}.release_id = ${releaseParam}
    and ${itemAlias}.document_id = ${alias}.id and ${itemAlias}.project_id = $1 and ${itemAlias}.environment_id = $2`;
}

/** True when the release exists in this project and environment. */
export async function hasRelease(db: Queryable, scope: Scope, releaseId: string): Promise<boolean> {
  const result = await db.query('select 1 from releases where project_id = $1 and environment_id = $2 and id = $3', [
    scope.projectId,
    scope.environmentId,
    releaseId,
  ]);
  return result.rows.length > 0;
}
