import type { ContentDocument } from '../../api/index.js';
import { usePublish } from '../../editor/use-publish.js';
import { useActionOverride } from '../../extensions/contributed.js';
import { useStudio } from '../../state/studio-context.js';
import { ErrorNotice, Notice } from '../../ui/notice.js';

/**
 * Publish, in the editor's sticky bar beside Save: the built-in button, or the control a module puts
 * in its place (`content.publish` override). Publishing waits for unsaved changes to be saved.
 */
export function PublishControl({
  doc,
  dirty,
  onChanged,
}: {
  doc: ContentDocument;
  dirty: boolean;
  onChanged(): Promise<void>;
}) {
  const { bootstrap } = useStudio();
  const publishOverride = useActionOverride('content.publish');
  const { busy, error, message, publish } = usePublish(doc, onChanged);
  if (!bootstrap.me.capabilities['content.publish'] || doc.isDeleted) return null;
  if (publishOverride) return publishOverride({ doc, dirty, onChanged });

  return (
    <>
      <button
        type="button"
        className="primary"
        disabled={busy || dirty || (!doc.hasUnpublishedChanges && doc.publishedVersion !== null)}
        onClick={() => void publish()}
        aria-describedby={dirty ? 'publish-hint' : undefined}
      >
        Publish
      </button>
      {dirty ? (
        <small id="publish-hint" className="hint">
          Save your changes before publishing.
        </small>
      ) : null}
      {message ? <Notice kind="success">{message}</Notice> : null}
      <ErrorNotice error={error} />
    </>
  );
}
