import type { ContentDocument } from '../../api/index.js';
import type { LocalDraft } from '../../editor/local-drafts.js';
import { changedKeys } from '../../editor/text-diff.js';
import { labelOf } from '../../ui/labels.js';
import { Notice } from '../../ui/notice.js';

/** Unsaved changes this browser kept: restore or discard them, never applied silently (STUDIO-NOTES §7). */
export function OfferedDraftNotice({
  draft,
  doc,
  onRestore,
  onDiscard,
}: {
  draft: LocalDraft;
  doc: ContentDocument;
  onRestore(): void;
  onDiscard(): void;
}) {
  return (
    <Notice kind="warning">
      <p>
        This browser kept unsaved changes from {new Date(draft.savedAt).toLocaleString()}
        {draft.draftRevision !== doc.draftRevision
          ? ` (they started from revision ${draft.draftRevision}; the server is at ${doc.draftRevision} now, so saving them will ask how to merge)`
          : ''}
        . Changed:{' '}
        {[
          ...changedKeys(draft.frontmatter, doc.frontmatter).map(labelOf),
          ...(draft.body !== doc.body ? ['Body'] : []),
        ].join(', ')}
        .
      </p>
      <div className="actions">
        <button type="button" onClick={onRestore}>
          Restore my changes
        </button>
        <button type="button" onClick={onDiscard}>
          Discard them
        </button>
      </div>
    </Notice>
  );
}
