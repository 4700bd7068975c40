import type { ContentDocument } from '../../api/index.js';
import type { Path } from '../../editor/paths.js';
import { changedKeys } from '../../editor/text-diff.js';
import { labelOf } from '../../ui/labels.js';

/** After "Merge by hand": their version beside mine, field by field, with their body to copy from. */
export function TheirsAside({
  theirs,
  frontmatter,
  onUseTheirs,
}: {
  theirs: ContentDocument;
  frontmatter: Record<string, unknown>;
  onUseTheirs(path: Path, value: unknown): void;
}) {
  return (
    <section className="theirs" aria-labelledby="theirs-title">
      <h2 id="theirs-title">Their version (revision {theirs.draftRevision}), to merge by hand</h2>
      <p className="muted">Copy what you need into your version, then save: your save replaces theirs.</p>
      {changedKeys(frontmatter, theirs.frontmatter).map((key) => (
        <div key={key} className="theirs-field">
          <strong>{labelOf(key)}:</strong> <code>{JSON.stringify(theirs.frontmatter[key])}</code>{' '}
          <button type="button" onClick={() => onUseTheirs([key], theirs.frontmatter[key])}>
            Use theirs for {labelOf(key)}
          </button>
        </div>
      ))}
      <label htmlFor="theirs-body">Their body</label>
      <textarea id="theirs-body" readOnly rows={8} value={theirs.body} />
    </section>
  );
}
