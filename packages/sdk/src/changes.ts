/**
 * The `changes` area (docs/sdk.md "Change feed"): what changed in the environment, in the order changes
 * became visible, after an opaque cursor. Keep `pagination.nextCursor` of the last page you applied and
 * pass it back as `since`: no change is ever skipped or listed twice. A cursor older than the server
 * keeps throws `CmsError` `CHANGES_CURSOR_EXPIRED`: load everything again, then follow from
 * `error.details.cursor`.
 */
import type { Change, FeedPagination, ListChangesQuery } from '@cms/core';
import { callRoute } from './route-call.js';
import type { CallOptions, Transport } from './transport.js';

/** Query of `changes.list` (all optional): `since` (a cursor), `limit` (1-1000), `draft`. */
export type ChangesListQuery = Partial<ListChangesQuery>;

/** One page of the feed, and where to ask from next time. */
export interface ChangesPage {
  data: Change[];
  pagination: FeedPagination;
}

export function changesArea(t: Transport) {
  const list = (query: ChangesListQuery = {}, options?: CallOptions): Promise<ChangesPage> =>
    callRoute(t, 'changes.list', { query, envelope: 'feed' }, options);
  /** Page after page from `since` until the feed's end as it stands when reached. */
  async function* pages(query: ChangesListQuery = {}, options?: CallOptions): AsyncGenerator<ChangesPage> {
    let since = query.since;
    for (;;) {
      const page = await list({ ...query, ...(since === undefined ? {} : { since }) }, options);
      yield page;
      if (!page.pagination.hasMore) return;
      since = page.pagination.nextCursor;
    }
  }
  return {
    /**
     * One page: the changes after `since` (from the oldest kept when omitted), oldest first.
     * @example
     * const page = await cms.changes.list({ since: saved });
     * for (const change of page.data) await apply(change);
     * saved = page.pagination.nextCursor; // never null: where to ask from next time
     */
    list,
    /** Every change after `since` until the feed's end, one at a time, fetched page by page. */
    async *iterate(query: ChangesListQuery = {}, options?: CallOptions): AsyncGenerator<Change> {
      for await (const page of pages(query, options)) yield* page.data;
    },
    /**
     * Every page after `since` until the feed's end, each with its `pagination.nextCursor`: what an
     * incremental sync keeps once it has applied the page.
     */
    pages,
  };
}
