import { useEffect, useState } from 'react';
import { type ApiError, type ContentDocument, content, type OverviewCount } from '../api/index.js';
import { Link } from '../router.js';
import { toApiError, useStudio } from '../state/studio-context.js';
import { Empty, ErrorNotice, Loading } from '../ui/notice.js';
import { labelOf } from '../ui/shell.js';
import { titleOf } from './document-title.js';

/** Overview counts per type and the latest changes across types. */
export function DashboardPage() {
  const { target, types } = useStudio();
  const [counts, setCounts] = useState<OverviewCount[] | null>(null);
  const [recent, setRecent] = useState<ContentDocument[] | null>(null);
  const [error, setError] = useState<ApiError | null>(null);

  useEffect(() => {
    let live = true;
    setCounts(null);
    setRecent(null);
    content.overview(target).then(
      (answer) => live && setCounts(answer.counts),
      (caught) => live && setError(toApiError(caught)),
    );
    Promise.all(types.map((type) => content.recent(target, type.name, 5)))
      .then((pages) => {
        if (!live) return;
        const all = pages.flatMap((page) => page.data);
        all.sort((a, b) => b.updatedAt.localeCompare(a.updatedAt));
        setRecent(all.slice(0, 10));
      })
      .catch((caught) => live && setError(toApiError(caught)));
    return () => {
      live = false;
    };
  }, [target, types]);

  return (
    <>
      <h1>Dashboard</h1>
      <p className="muted">
        Project <strong>{target.project || 'none'}</strong>, environment <strong>{target.environment || 'none'}</strong>
      </p>
      <ErrorNotice error={error} />
      {types.length === 0 ? (
        <Empty>
          No content types yet. Define them in <code>cms.config.ts</code> and run <code>cms schema sync</code>.
        </Empty>
      ) : null}
      <section aria-labelledby="counts-heading">
        <h2 id="counts-heading">Content</h2>
        {counts === null && !error ? <Loading /> : null}
        {counts ? (
          <div className="cards">
            {counts.map((count) => (
              <Link key={count.type} to={`/content/${encodeURIComponent(count.type)}`} className="card">
                <span className="card-title">{labelOf(count.type)}</span>
                <span className="card-number">{count.total}</span>
                <span className="card-detail">
                  {count.published} published · {count.draft} drafts · {count.deleted} deleted
                </span>
              </Link>
            ))}
          </div>
        ) : null}
      </section>
      <section aria-labelledby="recent-heading">
        <h2 id="recent-heading">Recent changes</h2>
        {recent === null && !error && types.length > 0 ? <Loading /> : null}
        {recent && recent.length === 0 ? <Empty>Nothing edited yet.</Empty> : null}
        {recent && recent.length > 0 ? (
          <ul className="recent">
            {recent.map((doc) => (
              <li key={doc.documentId}>
                <Link to={`/content/${encodeURIComponent(doc.type)}/${doc.documentId}`}>{titleOf(doc)}</Link>{' '}
                <span className="muted">
                  {labelOf(doc.type)} · {doc.path} · updated{' '}
                  <time dateTime={doc.updatedAt}>{formatTime(doc.updatedAt)}</time>
                </span>
              </li>
            ))}
          </ul>
        ) : null}
      </section>
    </>
  );
}

export function formatTime(iso: string): string {
  return new Date(iso).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });
}
