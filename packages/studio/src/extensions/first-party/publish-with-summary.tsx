import { type FormEvent, useEffect, useRef, useState } from 'react';
import { usePublish } from '../../editor/use-publish.js';
import { ErrorNotice, Notice } from '../../ui/notice.js';
import type { ActionOverrideProps } from '../props.js';

/**
 * Override of `content.publish` (domain.content): publishing asks for an optional change summary,
 * stored with the version and shown in the history; Ctrl/Cmd+Shift+Enter opens it.
 */
export function PublishWithSummary({ doc, dirty, onChanged }: ActionOverrideProps['content.publish']) {
  const dialog = useRef<HTMLDialogElement>(null);
  const [summary, setSummary] = useState('');
  const { busy, error, message, publish: publishNow } = usePublish(doc, onChanged);

  const isDirty = useRef(dirty);
  isDirty.current = dirty;
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if ((event.ctrlKey || event.metaKey) && event.shiftKey && event.key === 'Enter') {
        event.preventDefault();
        if (!isDirty.current && !dialog.current?.open) dialog.current?.showModal();
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);

  const publish = async (event: FormEvent) => {
    event.preventDefault();
    dialog.current?.close();
    if (await publishNow(summary.trim() || undefined)) setSummary('');
  };

  return (
    <>
      <button
        type="button"
        className="primary"
        disabled={busy || dirty || (!doc.hasUnpublishedChanges && doc.publishedVersion !== null)}
        onClick={() => dialog.current?.showModal()}
        aria-describedby={dirty ? 'publish-hint' : undefined}
      >
        Publish…
      </button>
      <ErrorNotice error={error} title="Not published." />
      {message ? <Notice kind="success">{message}</Notice> : null}
      <dialog ref={dialog} aria-labelledby="publish-title">
        <form onSubmit={publish}>
          <h2 id="publish-title">Publish {doc.path}</h2>
          <label htmlFor="change-summary">Change summary (optional)</label>
          <textarea id="change-summary" rows={3} value={summary} onChange={(e) => setSummary(e.target.value)} />
          <div className="actions">
            <button type="submit" className="primary">
              Publish now
            </button>
            <button type="button" onClick={() => dialog.current?.close()}>
              Cancel
            </button>
          </div>
        </form>
      </dialog>
    </>
  );
}
