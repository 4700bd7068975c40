/**
 * The pure parts of the releases service (docs/api.md "Releases"): which states allow a change, time
 * zone names, and a release row as the routes summarise it.
 */
import { CmsError, type ReleaseStatus, type ReleaseSummary } from '@cms/core';
import type { EnvironmentContext } from '../../../http/request-context.js';
import type { ReleaseRow } from '../../../storage/repositories/releases.repository.js';

/** The states a release may be edited, scheduled or published from. */
export const EDITABLE: readonly ReleaseStatus[] = ['open', 'scheduled', 'failed'];

/** A release row as the routes list it. */
export function summaryOf(row: ReleaseRow): ReleaseSummary {
  return {
    id: row.id,
    title: row.title,
    description: row.description,
    status: row.status,
    scheduledAt: row.scheduledAt?.toISOString() ?? null,
    timeZone: row.timeZone,
    createdBy: row.createdBy,
    createdAt: row.createdAt.toISOString(),
    publishedAt: row.publishedAt?.toISOString() ?? null,
    revertOf: row.revertOf,
    revertedBy: row.revertedBy,
    itemCount: row.itemCount,
  };
}

/** RELEASE_STATE_CONFLICT unless the release is in one of the `allowed` states for what it is `doing`. */
export function assertStatus(row: ReleaseRow, allowed: readonly ReleaseStatus[], doing: string): void {
  if (allowed.includes(row.status)) return;
  throw new CmsError(
    'RELEASE_STATE_CONFLICT',
    `Cannot ${doing} release "${row.title}": it is ${row.status}, and only a release that is ${allowed.join(' or ')} can be.`,
    { status: row.status, allowed },
  );
}

/**
 * Items of a scheduled release change only with `content:publish` (FORBIDDEN otherwise): scheduling is a
 * publisher's decision about a set of documents, and `content:write` alone must not change what goes out
 * at that time. An open or failed release publishes only when a publisher sends or schedules it.
 */
export function assertMayChangeItems(ctx: EnvironmentContext, row: ReleaseRow): void {
  if (row.status !== 'scheduled') return;
  const { projectSlug, environmentName } = ctx.target;
  if (ctx.principal.scopesIn({ projectSlug, environmentName }).has('content:publish')) return;
  throw new CmsError(
    'FORBIDDEN',
    `Release "${row.title}" is scheduled: adding, changing or removing its items needs the content:publish permission. Ask someone who publishes to change it, or to unschedule it first.`,
    { missing: ['content:publish'], status: row.status },
  );
}

/** An IANA time zone name the runtime knows, else null. */
export function knownTimeZone(name: string): string | null {
  try {
    return new Intl.DateTimeFormat('en-US', { timeZone: name }).resolvedOptions().timeZone;
  } catch {
    return null;
  }
}
