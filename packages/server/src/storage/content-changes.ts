/**
 * Content changes recorded by the triggers of migration 0015: each transaction that changes what a
 * published read returns lists the environments it changed in the transaction-local setting
 * `cms.content_changed`. The transaction wrappers read the setting just before COMMIT and, once it
 * succeeds, deliver `content:<environment id>` (`content` alone: every environment) on
 * `cms_invalidate` to this process's listeners before the transaction returns, so the process that
 * wrote never serves what its write replaced. Other processes hear it through LISTEN/NOTIFY: on
 * PostgreSQL the server sends it after COMMIT (migration 0019, storage/content-announcer.ts), and
 * the announcement is also written in the transaction (migration 0017), so it is sent even when this
 * process dies before it could send it. See docs/performance.md "Published read cache".
 */
import { INVALIDATION_CHANNEL } from '../tenancy/invalidation.js';

/** The statement that reads the environments the open transaction changed (PGlite: one process). */
export const CONTENT_CHANGED_QUERY = `select current_setting('cms.content_changed', true) as changed`;

/**
 * The same on PostgreSQL, where other processes must hear it: when the transaction changed content it
 * also writes the announcement it owes them (migration 0017), in the same round trip as its COMMIT, and
 * returns the row's id, which the announcer deletes in the statement that sends the NOTIFY.
 */
export const RECORD_CONTENT_CHANGES_QUERY = `with changes as (select current_setting('cms.content_changed', true) as changed),
  owed as (insert into content_announcements (changed) select changed from changes where changed <> '' returning id)
  select (select changed from changes) as changed, (select id from owed) as announcement`;

/** What RECORD_CONTENT_CHANGES_QUERY returns. */
export interface RecordedContentChanges {
  changed: string | null;
  /** The row of content_announcements to delete once announced; null when nothing changed. */
  announcement: number | null;
}

/** The notification payloads for the setting's value (`null` or empty: nothing changed). */
export function contentChangePayloads(changed: string | null | undefined): string[] {
  if (!changed) return [];
  const environments = changed.split(',').filter((id) => id !== '');
  if (environments.includes('*')) return ['content'];
  return environments.map((id) => `content:${id}`);
}

/** The channel the payloads are delivered on. */
export const CONTENT_CHANGE_CHANNEL = INVALIDATION_CHANNEL;
