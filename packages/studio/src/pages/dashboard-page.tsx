import { content } from '../api/index.js';
import { Slot } from '../extensions/slot.js';
import { Link } from '../routing/navigation.js';
import { useStudio } from '../state/studio-context.js';
import { labelOf } from '../ui/labels.js';
import { Empty, ErrorNotice, Loading } from '../ui/notice.js';
import { useApiData } from '../ui/use-api-data.js';

/** Overview counts per type, then the widgets modules put in `dashboard.main` (recent changes). */
export function DashboardPage() {
  const { target, types } = useStudio();
  const overview = useApiData(() => content.overview(target), [target]);
  const counts = overview.data?.counts ?? null;
  const error = overview.error;

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
      <Slot id="dashboard.main" props={{}} className="dashboard-widgets" />
    </>
  );
}

export function formatTime(iso: string): string {
  return new Date(iso).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });
}
