/** Unified diffs of file texts for `cms status --diff` and conflicts (jsdiff's `createTwoFilesPatch`). */
import { createTwoFilesPatch } from 'diff';

/** `--- a/<file> (base)` / `+++ b/<file> (local)` and the hunks; '' when the texts are equal. */
export function unifiedDiff(file: string, before: string, after: string, labels: [string, string]): string {
  if (before === after) return '';
  const patch = createTwoFilesPatch(`a/${file}`, `b/${file}`, before, after, labels[0], labels[1], { context: 3 });
  // The first line is the "Index:"/"=====" banner of jsdiff: git-style output starts at `---`.
  return patch.slice(patch.indexOf('---'));
}
