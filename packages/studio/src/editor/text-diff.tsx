import { diffLines } from 'diff';

/** A line diff of two texts: removed lines struck through, added ones underlined (not colour only). */
export function TextDiff({ before, after, labels }: { before: string; after: string; labels: [string, string] }) {
  const parts = diffLines(before, after);
  if (parts.every((part) => !part.added && !part.removed)) return <p className="muted">No differences.</p>;
  return (
    <pre className="diff">
      <span className="visually-hidden">
        Differences from {labels[0]} to {labels[1]}:{'\n'}
      </span>
      {parts.map((part, index) => {
        const sign = part.added ? '+ ' : part.removed ? '- ' : '  ';
        const lines = part.value.replace(/\n$/, '').split('\n');
        const className = part.added ? 'diff-add' : part.removed ? 'diff-del' : 'diff-same';
        return (
          // biome-ignore lint/suspicious/noArrayIndexKey: parts of one computed diff
          <span key={index} className={className}>
            {part.added ? <span className="visually-hidden">Added in {labels[1]}: </span> : null}
            {part.removed ? <span className="visually-hidden">Only in {labels[0]}: </span> : null}
            {lines.map((line) => `${sign}${line}\n`).join('')}
          </span>
        );
      })}
    </pre>
  );
}

/** Frontmatter keys whose values differ between two objects (union of keys, order of the first). */
export function changedKeys(a: Record<string, unknown>, b: Record<string, unknown>): string[] {
  const keys = [...new Set([...Object.keys(a), ...Object.keys(b)])];
  return keys.filter((key) => JSON.stringify(a[key]) !== JSON.stringify(b[key]));
}

export function showValue(value: unknown): string {
  if (value === undefined) return '(not set)';
  return typeof value === 'string' ? value : JSON.stringify(value, null, 2);
}
