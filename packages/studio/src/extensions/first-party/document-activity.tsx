import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { type AuditEntry, activity } from '../../pages/activity/activity-api.js';
import { ActivitySentence } from '../../pages/activity/activity-page.js';
import { changesText, outcomeText } from '../../pages/activity/activity-words.js';
import { formatTime } from '../../pages/dashboard-page.js';
import { toApiError, useStudio } from '../../state/studio-context.js';
import { Empty, ErrorNotice, Loading } from '../../ui/notice.js';
import type { SlotWidgetProps } from '../props.js';

/** Entries the editor's activity section shows. */
const DOCUMENT_ACTIVITY_LIMIT = 20;

/**
 * `content.editor.sidebar` (core.system, `content:read:draft`): the document's activity, newest first, as
 * sentences ("You saved", "The server published the release “Spring”"): who changed what and when, with
 * the diff of each save (keys changed, body lines), and the batches and releases that changed it among
 * others; preview tokens are left out (the server's default). Editors see it, not only admins. Reloads
 * after a save.
 */
export function DocumentActivity({ doc, title }: SlotWidgetProps<'content.editor.sidebar'>) {
  const { target, bootstrap } = useStudio();
  // A save moves the revision or version: the key changes and the list is read again.
  const query = useQuery({
    queryKey: ['document-activity', target.project, target.environment, doc.documentId, doc.draftRevision, doc.version],
    queryFn: async () => (await activity.ofDocument(target, doc.documentId, { limit: DOCUMENT_ACTIVITY_LIMIT })).data,
    placeholderData: keepPreviousData,
  });
  const entries: AuditEntry[] | null = query.data ?? null;
  const error = query.error ? toApiError(query.error) : null;

  return (
    <section aria-labelledby="document-activity-heading" className="document-activity">
      <h2 id="document-activity-heading">{title}</h2>
      <ErrorNotice error={error} />
      {entries === null && !error ? <Loading /> : null}
      {entries && entries.length === 0 ? <Empty>No activity yet.</Empty> : null}
      {entries && entries.length > 0 ? (
        <ol className="activity-list">
          {entries.map((entry) => (
            <li key={entry.id}>
              {/* The document is this one: a sentence without it ("You saved"), but a release names itself. */}
              <ActivitySentence entry={entry} meId={bootstrap.me.principalId} withTarget={!entry.target.documentId} />
              {entry.outcome === 'success' ? null : (
                <>
                  {' '}
                  <span className={`badge badge-${entry.outcome}`}>{outcomeText(entry)}</span>
                </>
              )}{' '}
              <time className="muted" dateTime={entry.at}>
                {formatTime(entry.at)}
              </time>
              {changesText(entry) ? <div className="muted">{changesText(entry)}</div> : null}
            </li>
          ))}
        </ol>
      ) : null}
    </section>
  );
}
