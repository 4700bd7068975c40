import type { Diagnostic } from '@codemirror/lint';
import type { Text } from '@codemirror/state';
import type { MdxProblem } from './mdx-check.js';

/** The parser's line and column (1-based) as a position in the editor's text, kept inside it. */
function offsetOf(doc: Text, line: number, column: number): number {
  if (line > doc.lines) return doc.length;
  const at = doc.line(Math.max(1, line));
  return Math.min(at.to, at.from + Math.max(0, column - 1));
}

/** The editor's mark for a problem: the place underlined, the message with its line and column. */
export function mdxDiagnostic(doc: Text, problem: MdxProblem): Diagnostic {
  let from = offsetOf(doc, problem.line, problem.column);
  let to = problem.endLine && problem.endColumn ? offsetOf(doc, problem.endLine, problem.endColumn) : from;
  if (to <= from) {
    // A point: underline the character there, or the last one of its line at a line's end (an
    // empty line gets CodeMirror's point mark).
    const line = doc.lineAt(from);
    if (from < line.to) to = from + 1;
    else if (from > line.from) [from, to] = [from - 1, from];
    else to = from;
  }
  return {
    from,
    to,
    severity: 'error',
    source: 'MDX',
    message: `Line ${problem.line}, column ${problem.column}: ${problem.message}`,
  };
}
