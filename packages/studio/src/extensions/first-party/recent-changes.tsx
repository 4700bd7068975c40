import { content } from '../../api/index.js';
import { formatTime } from '../../pages/dashboard-page.js';
import { Link } from '../../routing/navigation.js';
import { useStudio } from '../../state/studio-context.js';
import { labelOf, titleOf } from '../../ui/labels.js';
import { Empty, ErrorNotice, Loading } from '../../ui/notice.js';
import { useApiData } from '../../ui/use-api-data.js';
import type { SlotWidgetProps } from '../props.js';

/** `dashboard.main` (domain.content): the latest edited documents across types. */
export function RecentChanges({ title }: SlotWidgetProps<'dashboard.main'>) {
  const { target, types } = useStudio();
  const names = types.map((type) => type.name);
  // The five latest of each type, merged: the ten latest overall.
  const { data: recent, error } = useApiData(async () => {
    const pages = await Promise.all(names.map((name) => content.recent(target, name, 5)));
    const all = pages.flatMap((page) => page.data);
    all.sort((a, b) => b.updatedAt.localeCompare(a.updatedAt));
    return all.slice(0, 10);
  }, [target, names]);

  return (
    <section aria-labelledby="recent-heading">
      <h2 id="recent-heading">{title}</h2>
      <ErrorNotice error={error} />
      {recent === null && !error && types.length > 0 ? <Loading /> : null}
      {(recent && recent.length === 0) || types.length === 0 ? <Empty>Nothing edited yet.</Empty> : null}
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
  );
}
