import type { ContentDocument } from '../api/index.js';
import { labelOf } from '../ui/shell.js';
import { changedKeys, showValue, TextDiff } from './text-diff.js';

/**
 * Someone saved this document after it was opened here. Both versions side by side (per field for
 * the frontmatter, a line diff for the body); the person's edits stay on screen whatever they choose.
 */
export function ConflictPanel(props: {
  mine: { frontmatter: Record<string, unknown>; body: string };
  theirs: ContentDocument;
  busy: boolean;
  onKeepMine(): void;
  onTakeTheirs(): void;
  onMergeByHand(): void;
}) {
  const { mine, theirs } = props;
  const keys = changedKeys(mine.frontmatter, theirs.frontmatter);
  return (
    <section className="conflict" aria-labelledby="conflict-title">
      <h2 id="conflict-title">Someone else saved this document meanwhile</h2>
      <p>
        The server has revision {theirs.draftRevision}, saved {new Date(theirs.updatedAt).toLocaleString()}. Your
        changes are still here. Choose what to keep:
      </p>
      {keys.length > 0 ? (
        <table className="compare">
          <caption>Fields that differ</caption>
          <thead>
            <tr>
              <th scope="col">Field</th>
              <th scope="col">Yours</th>
              <th scope="col">Theirs (server)</th>
            </tr>
          </thead>
          <tbody>
            {keys.map((key) => (
              <tr key={key}>
                <th scope="row">{labelOf(key)}</th>
                <td>
                  <pre>{showValue(mine.frontmatter[key])}</pre>
                </td>
                <td>
                  <pre>{showValue(theirs.frontmatter[key])}</pre>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : (
        <p className="muted">The fields are the same.</p>
      )}
      <h3>Body: yours compared with theirs</h3>
      <TextDiff before={theirs.body} after={mine.body} labels={['theirs', 'yours']} />
      <div className="actions">
        <button type="button" className="primary" disabled={props.busy} onClick={props.onKeepMine}>
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
