import { type FormEvent, useEffect, useState } from 'react';
import type { CmsError } from '../../api/index.js';
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
  const [entries, setEntries] = useState<AuditEntry[] | null>(null);
  const [cursor, setCursor] = useState<string | null>(null);
  const [error, setError] = useState<CmsError | null>(null);
  const [loadingMore, setLoadingMore] = useState(false);
  const project = { project: target.project };

  useEffect(() => {
    let live = true;
    setEntries(null);
    setError(null);
    activity.list({ project: target.project }, { ...filters, limit: ACTIVITY_PAGE_SIZE }).then(
      (page) => {
        if (!live) return;
        setEntries(page.data);
        setCursor(page.pagination.nextCursor);
      },
      (caught) => live && setError(toApiError(caught)),
    );
    return () => {
      live = false;
    };
  }, [target.project, filters]);

  const more = async () => {
    if (!cursor) return;
    setLoadingMore(true);
    try {
      const page = await activity.list(project, { ...filters, limit: ACTIVITY_PAGE_SIZE, cursor });
      setEntries((before) => [...(before ?? []), ...page.data]);
      setCursor(page.pagination.nextCursor);
    } catch (caught) {
      setError(toApiError(caught));
    } finally {
      setLoadingMore(false);
    }
  };

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
      {cursor ? (
        <button type="button" onClick={more} disabled={loadingMore}>
          {loadingMore ? 'Loading…' : 'Show older'}
        </button>
      ) : null}
    </>
  );
}
