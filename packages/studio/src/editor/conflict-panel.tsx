import { type MergedKey, mergeFrontmatter, mergeText } from '@cms/core/source';
import { useEffect, useMemo, useRef } from 'react';
import type { ContentDocument } from '../api/index.js';
import { labelOf } from '../ui/labels.js';
import { showValue, TextDiff } from './text-diff.js';

/** A document's editable parts. */
export interface DocumentParts {
  frontmatter: Record<string, unknown>;
  body: string;
}

/** What the merge did with a field, in words. */
const OUTCOME: Record<MergedKey['changedBy'], string> = {
  nobody: 'unchanged',
  mine: 'your change kept',
  theirs: 'their change taken',
  'both-same': 'same change on both sides',
  both: 'both changed it: yours kept',
};

/**
 * Someone saved this document after it was opened here. Three-way, against the version this editor
 * opened (the base): per field base, yours and theirs, and the body merged by lines (core's
 * `mergeFrontmatter` and `mergeText`, as `cms pull` merges). What only they changed is taken, what
 * only I changed is kept, and only where both changed the same field or lines does "Keep mine" choose
 * mine: it never writes back a value they changed and I did not. The panel takes focus when it opens
 * and says what happened in a live region; the person's edits stay on screen whatever they choose.
 */
export function ConflictPanel(props: {
  base: DocumentParts;
  mine: DocumentParts;
  theirs: ContentDocument;
  busy: boolean;
  /** Saves the merge (conflicting fields and lines as mine) over their revision. */
  onKeepMine(merged: DocumentParts): void;
  onTakeTheirs(): void;
  onMergeByHand(): void;
}) {
  const { base, mine, theirs } = props;
  const fields = useMemo(
    () => mergeFrontmatter(base.frontmatter, mine.frontmatter, theirs.frontmatter),
    [base.frontmatter, mine.frontmatter, theirs.frontmatter],
  );
  const body = useMemo(() => mergeText(base.body, mine.body, theirs.body), [base.body, mine.body, theirs.body]);
  const shown = fields.keys.filter((key) => key.changedBy !== 'nobody');
  const theirsOnly = fields.keys.filter((key) => key.changedBy === 'theirs').length;
  const heading = useRef<HTMLHeadingElement>(null);
  // Ctrl+S may be pressed far down the page: the panel comes into view and takes focus.
  useEffect(() => {
    heading.current?.scrollIntoView({ block: 'start' });
    heading.current?.focus();
  }, []);

  const conflicts = fields.conflicts.length + body.conflicts;
  const summary =
    conflicts === 0
      ? `Your changes and theirs do not overlap: Keep mine saves both${theirsOnly > 0 ? ` (${theirsOnly} of their field changes taken)` : ''}.`
      : `${fields.conflicts.length > 0 ? `You both changed ${fields.conflicts.map(labelOf).join(', ')}. ` : ''}${
          body.conflicts > 0
            ? `You both changed the same body lines in ${body.conflicts} place${body.conflicts > 1 ? 's' : ''}. `
            : ''
        }Keep mine keeps yours there and takes their other changes.`;

  return (
    <section className="conflict" aria-labelledby="conflict-title">
      <h2 id="conflict-title" ref={heading} tabIndex={-1}>
        Someone else saved this document meanwhile
      </h2>
      <p role="status" aria-live="assertive">
        {summary}
      </p>
      <p>
        The server has revision {theirs.draftRevision}, saved {new Date(theirs.updatedAt).toLocaleString()}. Your
        changes are still here.
      </p>
      {shown.length > 0 ? (
        <table className="compare">
          <caption>Fields changed since you opened the document</caption>
          <thead>
            <tr>
              <th scope="col">Field</th>
              <th scope="col">When you opened it</th>
              <th scope="col">Yours</th>
              <th scope="col">Theirs (server)</th>
              <th scope="col">Merged</th>
            </tr>
          </thead>
          <tbody>
            {shown.map((key) => (
              <tr key={key.key} className={key.changedBy === 'both' ? 'conflicting' : undefined}>
                <th scope="row">{labelOf(key.key)}</th>
                <td>
                  <pre>{showValue(key.base)}</pre>
                </td>
                <td>
                  <pre>{showValue(key.mine)}</pre>
                </td>
                <td>
                  <pre>{showValue(key.theirs)}</pre>
                </td>
                <td>{OUTCOME[key.changedBy]}</td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : (
        <p className="muted">No field changed.</p>
      )}
      <h3>Body: theirs compared with the merge</h3>
      <TextDiff before={theirs.body} after={body.text} labels={['theirs', 'the merge']} />
      <div className="actions">
        <button
          type="button"
          className="primary"
          disabled={props.busy}
          onClick={() => props.onKeepMine({ frontmatter: fields.merged, body: body.text })}
        >
          Keep mine
        </button>
        <button type="button" disabled={props.busy} onClick={props.onTakeTheirs}>
          Take theirs
        </button>
        <button type="button" disabled={props.busy} onClick={props.onMergeByHand}>
          Merge by hand
        </button>
      </div>
    </section>
  );
}
