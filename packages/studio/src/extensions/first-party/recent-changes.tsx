import { useEffect, useState } from 'react';
import { type CmsError, type ContentDocument, content } from '../../api/index.js';
import { formatTime } from '../../pages/dashboard-page.js';
import { titleOf } from '../../pages/document-title.js';
import { Link } from '../../routing/navigation.js';
import { toApiError, useStudio } from '../../state/studio-context.js';
import { Empty, ErrorNotice, Loading } from '../../ui/notice.js';
import { labelOf } from '../../ui/shell.js';
import type { SlotWidgetProps } from '../props.js';

/** `dashboard.main` (domain.content): the latest edited documents across types. */
export function RecentChanges({ title }: SlotWidgetProps<'dashboard.main'>) {
  const { target, types } = useStudio();
  const [recent, setRecent] = useState<ContentDocument[] | null>(null);
  const [error, setError] = useState<CmsError | null>(null);

  useEffect(() => {
    let live = true;
    setRecent(null);
    setError(null);
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
