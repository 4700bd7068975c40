import type { Release, ReleaseItem } from '@cms/core';
import { useState } from 'react';
import { type CmsError, releases } from '../../api/index.js';
import { Link, navigate } from '../../routing/navigation.js';
import { toApiError, useStudio } from '../../state/studio-context.js';
import { ConfirmDialog } from '../../ui/confirm-dialog.js';
import { Empty, ErrorNotice, Loading, Notice } from '../../ui/notice.js';
import { useApiData } from '../../ui/use-api-data.js';
import { ReleaseStatusBadge } from './release-status.js';
import { ScheduleForm } from './schedule-form.js';
import { formatInZone } from './zoned-time.js';

/** Statuses whose items and schedule may still change (the server's rule, mirrored for the buttons). */
const EDITABLE = new Set(['open', 'scheduled', 'failed']);

/**
 * One release: its status, schedule and items (with what each does, whether its draft changed since
 * it was added, and why it failed), and what can be done with it now: remove items, schedule or
 * unschedule, publish now, revert once published.
 */
export function ReleaseDetail({ id }: { id: string }) {
  const { target } = useStudio();
  const release = useApiData(() => releases.get(target, id), [target, id]);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<CmsError | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const [scheduling, setScheduling] = useState(false);
  const [confirming, setConfirming] = useState<'publish' | 'revert' | null>(null);

  const run = async (what: () => Promise<unknown>, done: string | ((answer: unknown) => string)) => {
    setBusy(true);
    setError(null);
    setNotice(null);
    try {
      const answer = await what();
      // The release as it is now first, then the notice: never a success beside the old status.
      await release.reload();
      setNotice(typeof done === 'string' ? done : done(answer));
    } catch (caught) {
      setError(toApiError(caught));
    } finally {
      setBusy(false);
      setConfirming(null);
    }
  };

  if (!release.data) {
    return (
      <>
        <p>
          <Link to="/releases">All releases</Link>
        </p>
        <ErrorNotice error={release.error} title="The release could not be loaded." />
        {release.error ? null : <Loading />}
      </>
    );
  }
  const data: Release = release.data;
  const editable = EDITABLE.has(data.status);
  const changed = data.items.filter((item) => item.changedSinceAdded);

  return (
    <>
      <p>
        <Link to="/releases">All releases</Link>
      </p>
      <h1>{data.title}</h1>
      {data.description ? <p>{data.description}</p> : null}
      <dl className="facts">
        <dt>Status</dt>
        <dd>
          <ReleaseStatusBadge status={data.status} />
        </dd>
        <dt>Scheduled for</dt>
        <dd>{data.scheduledAt ? formatInZone(data.scheduledAt, data.timeZone) : 'Not scheduled'}</dd>
        {data.publishedAt ? (
          <>
            <dt>Published</dt>
            <dd>{formatInZone(data.publishedAt, null)}</dd>
          </>
        ) : null}
        {data.revertedBy ? (
          <>
            <dt>Reverted by</dt>
            <dd>
              <Link to={`/releases/${data.revertedBy}`}>the revert release</Link>
            </dd>
          </>
        ) : null}
      </dl>
      {data.status === 'failed' ? (
        <Notice kind="warning">
          The last attempt published nothing: the documents below marked with a reason kept the release from going out.
          Fix them and publish again.
        </Notice>
      ) : null}
      {changed.length > 0 && data.status === 'scheduled' ? (
        <Notice kind="warning">
          {changed.length === 1 ? '1 document was' : `${changed.length} documents were`} changed since the release was
          scheduled: at its time it will fail and name them, unless it is scheduled again (which takes the drafts as
          they are then).
        </Notice>
      ) : changed.length > 0 && editable ? (
        <Notice kind="warning">
          {changed.length === 1 ? '1 document was' : `${changed.length} documents were`} changed since added: what
          publishes is the draft as it is now.
        </Notice>
      ) : null}
      <ErrorNotice error={error} title="That did not work." />
      {notice ? <Notice kind="success">{notice}</Notice> : null}

      <div className="actions">
        {editable ? (
          <button
            type="button"
            className="primary"
            disabled={busy || data.items.length === 0}
            onClick={() => setConfirming('publish')}
          >
            Publish now
          </button>
        ) : null}
        {editable && !scheduling ? (
          <button type="button" disabled={busy || data.items.length === 0} onClick={() => setScheduling(true)}>
            {data.status === 'scheduled' ? 'Change schedule' : 'Schedule'}
          </button>
        ) : null}
        {data.status === 'scheduled' ? (
          <button
            type="button"
            disabled={busy}
            onClick={() => run(() => releases.unschedule(target, id), 'Unscheduled.')}
          >
            Unschedule
          </button>
        ) : null}
        {data.status === 'published' ? (
          <button type="button" disabled={busy} onClick={() => setConfirming('revert')}>
            Revert
          </button>
        ) : null}
      </div>
      {scheduling ? (
        <ScheduleForm
          submitLabel="Save schedule"
          busy={busy}
          initial={{ scheduledAt: data.scheduledAt, timeZone: data.timeZone }}
          onCancel={() => setScheduling(false)}
          onSubmit={(scheduledAt, timeZone) => {
            setScheduling(false);
            void run(
              () => releases.schedule(target, id, scheduledAt, timeZone),
              `Scheduled for ${formatInZone(scheduledAt, timeZone)}.`,
            );
          }}
        />
      ) : null}

      <h2>Documents</h2>
      {data.items.length === 0 ? (
        <Empty>No documents yet. Open a document and choose “Add to release”.</Empty>
      ) : (
        <ReleaseItems
          items={data.items}
          editable={editable && !busy}
          status={data.status}
          onRemove={(item) =>
            run(() => releases.removeItem(target, id, item.documentId), `Removed ${item.path} from the release.`)
          }
        />
      )}

      {confirming === 'publish' ? (
        <ConfirmDialog
          title={`Publish “${data.title}” now?`}
          confirmLabel="Publish now"
          busy={busy}
          onCancel={() => setConfirming(null)}
          onConfirm={() =>
            run(
              () => releases.publish(target, id),
              (answer) =>
                (answer as Release).status === 'published'
                  ? 'Published: every document of the release is out.'
                  : 'Not published: see the reasons beside the documents.',
            )
          }
        >
          Every document is checked again, then all of them go out together, or none does.
        </ConfirmDialog>
      ) : null}
      {confirming === 'revert' ? (
        <ConfirmDialog
          title={`Revert “${data.title}”?`}
          confirmLabel="Revert"
          busy={busy}
          onCancel={() => setConfirming(null)}
          onConfirm={() =>
            run(async () => {
              const inverse = await releases.revert(target, id);
              navigate(`/releases/${inverse.id}`);
              return inverse;
            }, 'Reverted: the documents are back to their versions from before.')
          }
        >
          A new release publishes again the version each document had before, and unpublishes what this release
          published first.
        </ConfirmDialog>
      ) : null}
    </>
  );
}

/** How an item stands, in words. */
function stateOf(item: ReleaseItem, status: Release['status']): string {
  if (status === 'published' || status === 'reverted') {
    return item.publishedVersion === null ? 'Unpublished' : `Published as version ${item.publishedVersion}`;
  }
  if (!item.changedSinceAdded) return 'Ready';
  return status === 'scheduled' ? 'Changed since scheduled' : 'Changed since added';
}

function ReleaseItems({
  items,
  editable,
  status,
  onRemove,
}: {
  items: ReleaseItem[];
  editable: boolean;
  status: Release['status'];
  onRemove(item: ReleaseItem): void;
}) {
  return (
    <table className="list">
      <caption className="visually-hidden">Documents of the release</caption>
      <thead>
        <tr>
          <th scope="col">Document</th>
          <th scope="col">Action</th>
          <th scope="col">State</th>
          <th scope="col">
            <span className="visually-hidden">Remove</span>
          </th>
        </tr>
      </thead>
      <tbody>
        {items.map((item) => (
          <tr key={item.documentId}>
            <td>
              <Link to={`/content/${encodeURIComponent(item.type)}/${item.documentId}`}>{item.path}</Link>
              <span className="muted"> {item.type}</span>
            </td>
            <td>{item.action === 'publish' ? 'Publish' : 'Unpublish'}</td>
            <td>{item.error ? <span className="field-error">Failed: {item.error}</span> : stateOf(item, status)}</td>
            <td>
              {editable ? (
                <button type="button" onClick={() => onRemove(item)} aria-label={`Remove ${item.path}`}>
                  Remove
                </button>
              ) : null}
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
