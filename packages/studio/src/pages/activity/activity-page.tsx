import { useInfiniteQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { toApiError, useStudio } from '../../state/studio-context.js';
import { DataTable } from '../../ui/data-table.js';
import { ErrorNotice } from '../../ui/notice.js';
import { formatTime } from '../dashboard-page.js';
import {
  ACTIVITY_PAGE_SIZE,
  type AuditEntry,
  type AuditListQuery,
  activity,
  actorText,
  changesText,
} from './activity-api.js';

type Filters = Pick<AuditListQuery, 'action' | 'actor' | 'outcome' | 'type' | 'from' | 'to'>;

/** `/activity` (`audit:read`): the project's audit log, newest first, with filters and cursor pages (docs/audit.md). */
export function ActivityPage() {
  const { target } = useStudio();
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

  const apply = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const text = (name: string) => {
      const value = String(form.get(name) ?? '').trim();
      return value === '' ? undefined : value;
    };
    const day = (name: string) => {
      const value = text(name);
      return value ? new Date(`${value}T00:00:00`).toISOString() : undefined;
    };
    const next: Filters = {};
    const action = text('action');
    const actor = text('actor');
    const type = text('type');
    const outcome = text('outcome') as Filters['outcome'];
    const from = day('from');
    const to = day('to');
    if (action) next.action = action;
    if (actor) next.actor = actor;
    if (type) next.type = type;
    if (outcome) next.outcome = outcome;
    if (from) next.from = from;
    if (to) next.to = to;
    // The same filters again read the log afresh from the newest entry, as new filters do.
    if (JSON.stringify(next) === JSON.stringify(filters)) void client.resetQueries({ queryKey, exact: true });
    setFilters(next);
  };

  return (
    <>
      <h1>Activity</h1>
      <p className="muted">Every change in this project: who, what, when and whether it worked.</p>
      <form className="filters" onSubmit={apply} aria-label="Filter activity">
        <label>
          Action <input name="action" placeholder="content.update" />
        </label>
        <label>
          Actor id <input name="actor" />
        </label>
        <label>
          Type <input name="type" />
        </label>
        <label>
          Outcome{' '}
          <select name="outcome" defaultValue="">
            <option value="">Any</option>
            <option value="success">Success</option>
            <option value="failure">Failure</option>
            <option value="denied">Denied</option>
          </select>
        </label>
        <label>
          From <input name="from" type="date" />
        </label>
        <label>
          Until <input name="to" type="date" />
        </label>
        <button type="submit">Apply filters</button>
      </form>
      <ErrorNotice error={error} />
      <DataTable
        items={entries}
        failed={entries === null && error !== null}
        empty="No activity matches."
        caption="Activity"
        columns={['When', 'Who', 'Action', 'Target', 'Outcome', 'Changes']}
        row={(entry) => (
          <tr key={entry.id}>
            <td>
              <time dateTime={entry.at}>{formatTime(entry.at)}</time>
            </td>
            <td>{actorText(entry)}</td>
            <td>
              <code>{entry.action}</code>
            </td>
            <td>
              {[entry.target.environment, entry.target.type, entry.target.documentId ?? entry.target.id]
                .filter(Boolean)
                .join(' · ')}
            </td>
            <td>
              <span className={`badge badge-${entry.outcome}`}>{entry.outcome}</span>
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
