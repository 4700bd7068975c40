import type { ReleaseAction, ReleaseSummary } from '@cms/core';
import { type FormEvent, useId, useRef, useState } from 'react';
import { type CmsError, releases } from '../../api/index.js';
import { ScheduleForm } from '../../pages/releases/schedule-form.js';
import { formatInZone } from '../../pages/releases/zoned-time.js';
import { Link } from '../../routing/navigation.js';
import { toApiError, useStudio } from '../../state/studio-context.js';
import { ErrorNotice, Notice } from '../../ui/notice.js';
import type { SlotWidgetProps } from '../props.js';

/** Statuses a release takes documents in (the server's rule). */
const TAKES_ITEMS = new Set(['open', 'scheduled', 'failed']);
/** How many releases the picker offers (newest first). */
const PICKER_SIZE = 100;
const NEW_RELEASE = '__new__';

/**
 * `content.editor.header.actions` (domain.content): "Add to release" puts the document in an
 * existing release or a new one; "Schedule" publishes it at a chosen time, as a release of one
 * (decisions.md §8: one mechanism for every schedule).
 */
export function ReleaseActions({ doc, dirty }: SlotWidgetProps<'content.editor.header.actions'>) {
  const { target } = useStudio();
  const id = useId();
  const addDialog = useRef<HTMLDialogElement>(null);
  const scheduleDialog = useRef<HTMLDialogElement>(null);
  const [choices, setChoices] = useState<ReleaseSummary[] | null>(null);
  const [chosen, setChosen] = useState(NEW_RELEASE);
  const [newTitle, setNewTitle] = useState('');
  const [action, setAction] = useState<ReleaseAction>('publish');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<CmsError | null>(null);
  const [done, setDone] = useState<{ text: string; releaseId: string } | null>(null);
  // A closed dialog keeps no form in the page: its labels ("Title of the new release") would stand
  // beside the editor's own fields for anything that finds a field by its label.
  const [addOpen, setAddOpen] = useState(false);
  const [scheduleOpen, setScheduleOpen] = useState(false);
  // A schedule is three requests (make the release, add the document, schedule it). When a later one
  // fails, trying again completes the release already made instead of making another.
  const [unscheduled, setUnscheduled] = useState<{ id: string; title: string } | null>(null);

  if (doc.isDeleted) return null;

  const openAdd = async () => {
    setError(null);
    setDone(null);
    setAddOpen(true);
    addDialog.current?.showModal();
    try {
      const page = await releases.list(target, { limit: PICKER_SIZE });
      const open = page.data.filter((release) => TAKES_ITEMS.has(release.status));
      setChoices(open);
      setChosen(open[0]?.id ?? NEW_RELEASE);
    } catch (caught) {
      setError(toApiError(caught));
      setChoices([]);
    }
  };

  const add = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    setError(null);
    try {
      const releaseId =
        chosen === NEW_RELEASE ? (await releases.create(target, { title: newTitle.trim() })).id : chosen;
      const release = await releases.addItems(target, releaseId, [{ documentId: doc.documentId, action }]);
      addDialog.current?.close();
      setNewTitle('');
      setDone({ text: `Added to the release “${release.title}”.`, releaseId });
    } catch (caught) {
      setError(toApiError(caught));
    } finally {
      setBusy(false);
    }
  };

  const schedule = async (scheduledAt: string, timeZone: string) => {
    setBusy(true);
    setError(null);
    try {
      let release = unscheduled;
      if (!release) {
        const made = await releases.create(target, { title: `Publish ${doc.path}`.slice(0, 200) });
        release = { id: made.id, title: made.title };
        setUnscheduled(release);
      }
      // Again on a retry: adding is idempotent (the last action named for a document wins).
      await releases.addItems(target, release.id, [{ documentId: doc.documentId, action: 'publish' }]);
      await releases.schedule(target, release.id, scheduledAt, timeZone);
      setUnscheduled(null);
      scheduleDialog.current?.close();
      setDone({ text: `Scheduled to publish on ${formatInZone(scheduledAt, timeZone)}.`, releaseId: release.id });
    } catch (caught) {
      setError(toApiError(caught));
    } finally {
      setBusy(false);
    }
  };

  return (
    <>
      <button type="button" onClick={openAdd} disabled={busy}>
        Add to release
      </button>
      <button
        type="button"
        disabled={busy || dirty}
        title={dirty ? 'Save first: the schedule publishes the saved draft.' : undefined}
        onClick={() => {
          setError(null);
          setDone(null);
          setScheduleOpen(true);
          scheduleDialog.current?.showModal();
        }}
      >
        Schedule
      </button>
      {done ? (
        <Notice kind="success">
          {done.text} <Link to={`/releases/${done.releaseId}`}>Open the release</Link>
        </Notice>
      ) : null}
      {!addDialog.current?.open && !scheduleDialog.current?.open ? (
        <ErrorNotice error={error} title="Not done." />
      ) : null}

      <dialog ref={addDialog} aria-labelledby={`${id}-add`} onClose={() => setAddOpen(false)}>
        {addOpen ? (
          <form onSubmit={add}>
            <h2 id={`${id}-add`}>Add {doc.path} to a release</h2>
            <label htmlFor={`${id}-release`}>Release</label>
            <select id={`${id}-release`} value={chosen} onChange={(e) => setChosen(e.target.value)} disabled={!choices}>
              {(choices ?? []).map((release) => (
                <option key={release.id} value={release.id}>
                  {release.title} ({release.status}, {release.itemCount} documents)
                </option>
              ))}
              <option value={NEW_RELEASE}>New release…</option>
            </select>
            {chosen === NEW_RELEASE ? (
              <>
                <label htmlFor={`${id}-title`}>Title of the new release</label>
                <input
                  id={`${id}-title`}
                  value={newTitle}
                  maxLength={200}
                  required
                  onChange={(e) => setNewTitle(e.target.value)}
                />
              </>
            ) : null}
            <label htmlFor={`${id}-action`}>When the release goes out</label>
            <select id={`${id}-action`} value={action} onChange={(e) => setAction(e.target.value as ReleaseAction)}>
              <option value="publish">Publish this document</option>
              <option value="unpublish">Unpublish this document</option>
            </select>
            <ErrorNotice error={error} title="Not added." />
            <div className="actions">
              <button
                type="submit"
                className="primary"
                disabled={busy || !choices || (chosen === NEW_RELEASE && newTitle.trim() === '')}
              >
                Add to release
              </button>
              <button type="button" onClick={() => addDialog.current?.close()}>
                Cancel
              </button>
            </div>
          </form>
        ) : null}
      </dialog>

      <dialog ref={scheduleDialog} aria-labelledby={`${id}-schedule`} onClose={() => setScheduleOpen(false)}>
        <h2 id={`${id}-schedule`}>Schedule {doc.path}</h2>
        <p className="muted">The saved draft is published at this time, as a release of one document.</p>
        <ErrorNotice error={error} title="Not scheduled." />
        {error && unscheduled ? (
          <p className="muted">
            The release “{unscheduled.title}” was made: scheduling again completes it instead of making another.
          </p>
        ) : null}
        {scheduleOpen ? (
          <ScheduleForm
            submitLabel="Schedule publish"
            busy={busy}
            onCancel={() => scheduleDialog.current?.close()}
            onSubmit={(at, zone) => void schedule(at, zone)}
          />
        ) : null}
      </dialog>
    </>
  );
}
