import { useInfiniteQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Link } from '../../routing/navigation.js';
import { toApiError, useStudio } from '../../state/studio-context.js';
import { DataTable } from '../../ui/data-table.js';
import { ErrorNotice } from '../../ui/notice.js';
import { formatTime } from '../dashboard-page.js';
import { ACTIVITY_PAGE_SIZE, type AuditEntry, activity } from './activity-api.js';
import { ActivityFilters, type Filters } from './activity-filters.js';
import { actorText, changesText, outcomeText, targetOf, verbOf } from './activity-words.js';

/** One entry as a sentence: who, what, and the document or release it was done to (a link). */
export function ActivitySentence({
  entry,
  meId,
  withTarget = true,
}: {
  entry: AuditEntry;
  meId: string;
  withTarget?: boolean;
}) {
  const target = targetOf(entry);
  return (
    <>
      <strong>{actorText(entry, meId)}</strong> {verbOf(entry)}
      {withTarget && target.text ? <> {target.to ? <Link to={target.to}>{target.text}</Link> : target.text}</> : null}
    </>
  );
}

/**
 * `/activity` (`audit:read`): the project's audit log, newest first, as sentences ("ada@example.com
 * published “Getting started” (Post)"), with filters by name and cursor pages (docs/audit.md "Studio").
 * Routine entries (preview tokens) only when asked for.
 */
export function ActivityPage() {
  const { target, bootstrap } = useStudio();
  const [filters, setFilters] = useState<Filters>({});
  const client = useQueryClient();
  // Pages newest first, each asked with the previous page's cursor ("Show older"). Dropped once
  // left (gcTime 0): the log grows, so coming back starts again from the newest entries.
  const queryKey = ['activity', target.project, filters];
  const log = useInfiniteQuery({
    queryKey,
    queryFn: ({ pageParam }) =>
      activity.list(
        { project: target.project },
        { ...filters, limit: ACTIVITY_PAGE_SIZE, ...(pageParam ? { cursor: pageParam } : {}) },
      ),
    initialPageParam: null as string | null,
    getNextPageParam: (page) => page.pagination.nextCursor,
    gcTime: 0,
  });
  const entries: AuditEntry[] | null = log.data ? log.data.pages.flatMap((page) => page.data) : null;
  const error = log.error ? toApiError(log.error) : null;

  const apply = (next: Filters) => {
    // The same filters again read the log afresh from the newest entry, as new filters do.
    if (JSON.stringify(next) === JSON.stringify(filters)) void client.resetQueries({ queryKey, exact: true });
    setFilters(next);
  };

  return (
    <>
      <h1>Activity</h1>
      <p className="muted">Every change in this project: who did what, when, and whether it worked.</p>
      <ActivityFilters seen={entries ?? []} onApply={apply} />
      <ErrorNotice error={error} />
      <DataTable
        items={entries}
        failed={entries === null && error !== null}
        empty="No activity matches."
        caption="Activity"
        className="list admin-table activity-table"
        columns={['When', 'What happened', 'Outcome', 'Changes']}
        row={(entry) => (
          <tr key={entry.id}>
            <td>
              <time dateTime={entry.at}>{formatTime(entry.at)}</time>
            </td>
            <td>
              <ActivitySentence entry={entry} meId={bootstrap.me.principalId} />
              {entry.target.environment && entry.target.environment !== target.environment ? (
                <span className="muted"> in {entry.target.environment}</span>
              ) : null}
            </td>
            <td>
              <span className={`badge badge-${entry.outcome}`}>{outcomeText(entry)}</span>
            </td>
            <td>{changesText(entry)}</td>
          </tr>
        )}
      />
      {log.hasNextPage ? (
        <button type="button" onClick={() => void log.fetchNextPage()} disabled={log.isFetchingNextPage}>
          {log.isFetchingNextPage ? 'Loading…' : 'Show older'}
        </button>
      ) : null}
    </>
  );
}
