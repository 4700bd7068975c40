/**
 * Referrers: the live documents whose frontmatter holds a document's id in a reference field. One
 * statement, a containment test per reference field on the GIN indexes of migration 0056, filtered
 * by project and environment.
 */
import type { Queryable } from '../db.js';
import type { Scope } from './document-row.js';

/** One reference field that may hold the id: the referrer's type, the field's dot path, the `@>` value. */
export interface ReferrerProbe {
  type: string;
  field: string;
  /** The JSON a frontmatter contains when this field holds the id (`{"related":["<id>"]}`). */
  contains: unknown;
}

/** A referrer as the list answers it. */
export interface ReferrerRow {
  documentId: string;
  type: string;
  path: string;
  locale: string;
  title: string | null;
  fields: string[];
  inDraft: boolean;
  inPublished: boolean;
}

/** The type of a document of the environment (deleted or not), or null when there is none. */
export async function findDocumentType(db: Queryable, scope: Scope, documentId: string): Promise<string | null> {
  const result = await db.query<{ type: string }>(
    'select type from documents where project_id = $1 and environment_id = $2 and id = $3',
    [scope.projectId, scope.environmentId, documentId],
  );
  return result.rows[0]?.type ?? null;
}

/**
 * A page of the live documents (other than the target) whose draft or published frontmatter
 * matches a probe, by path; `total` counts them all. Probes are bounded by the schema.
 */
export async function listReferrerRows(
  db: Queryable,
  scope: Scope,
  documentId: string,
  probes: readonly ReferrerProbe[],
  page: { limit: number; offset: number },
): Promise<{ rows: ReferrerRow[]; total: number }> {
  if (probes.length === 0) return { rows: [], total: 0 };
  const params: unknown[] = [scope.projectId, scope.environmentId, documentId];
  const param = (value: unknown) => {
    params.push(value);
    return `$${params.length}`;
  };
  const draftMatches: string[] = [];
  const publishedMatches: string[] = [];
  const matchesPerProbe: string[] = [];
  for (const probe of probes) {
    const type = param(probe.type);
    const contains = `${param(JSON.stringify(probe.contains))}::jsonb`;
    const inDraft = `(d.type = ${type} and d.draft_frontmatter @> ${contains})`;
    const inPublished = `(d.type = ${type} and d.published_version is not null and d.published_frontmatter @> ${contains})`;
    draftMatches.push(inDraft);
    publishedMatches.push(inPublished);
    matchesPerProbe.push(`(${inDraft} or ${inPublished})`);
  }
  const anyDraft = draftMatches.join(' or ');
  const anyPublished = publishedMatches.join(' or ');
  const where = `d.project_id = $1 and d.environment_id = $2 and not d.is_deleted and d.id <> $3
       and (${anyDraft} or ${anyPublished})`;
  const filterParams = [...params];
  const result = await db.query<Omit<ReferrerRow, 'fields'> & { matched: boolean[]; total: number }>(
    `select d.id as "documentId", d.type, d.path, d.locale,
       case when jsonb_typeof(d.draft_frontmatter -> 'title') = 'string' then d.draft_frontmatter ->> 'title' end as title,
       array[${matchesPerProbe.join(', ')}] as matched,
       (${anyDraft}) as "inDraft", (${anyPublished}) as "inPublished",
       count(*) over ()::int as total
     from documents d
     where ${where}
     order by d.path, d.locale, d.id
     limit ${param(page.limit)} offset ${param(page.offset)}`,
    params,
    { readOnly: true },
  );
  const total = result.rows[0]?.total ?? 0;
  // Past the last page the window counts nothing: count on its own so the total stays right.
  if (result.rows.length === 0 && page.offset > 0) {
    const counted = await db.query<{ total: number }>(
      `select count(*)::int as total from documents d where ${where}`,
      filterParams,
      { readOnly: true },
    );
    return { rows: [], total: counted.rows[0]?.total ?? 0 };
  }
  const rows = result.rows.map(({ total: _total, matched, ...row }) => ({
    ...row,
    // A field matched by several probes (the same dot path in two types never meets one row) is named once.
    fields: [...new Set(probes.filter((_, index) => matched[index]).map((probe) => probe.field))],
  }));
  return { rows, total };
}
