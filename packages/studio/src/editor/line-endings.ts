/**
 * The body's line endings, kept apart from its text so that the editor never changes a byte it was
 * not asked to (STUDIO-NOTES 2). The editor splits lines on every ending a Markdown parser knows
 * (LF, CRLF, a lone CR: CodeMirror's default, and micromark's, so line numbers agree with the
 * preview's), and works on its own text, where each break is one position. This module is the one
 * place that knows which ending each break had in the file: the body's usual ending (the most
 * frequent one) for most, and a list of the exceptions (a mixed file), each at the editor position
 * of its break. Breaks typed or pasted get the usual ending; breaks an edit deletes are gone; the
 * others keep theirs. `bytesOf` turns the editor's text back into the file's bytes.
 */

export type LineEnding = '\n' | '\r\n' | '\r';

/** A break whose ending is not the usual one: `pos` is its place in the editor's text (its line's end). */
export interface EndingException {
  pos: number;
  ending: LineEnding;
}

/** What an edit did, as CodeMirror's `ChangeSet` reports it (no editor types here: the tests use it bare). */
export interface ChangesLike {
  /** Each replaced range, `[fromA, toA)` of the old text, `[fromB, toB)` of the new. */
  iterChangedRanges(f: (fromA: number, toA: number, fromB: number, toB: number) => void): void;
  /** Where an old position is after the edit (`assoc` 1: after text inserted at it). */
  mapPos(pos: number, assoc: number): number;
}

const BREAK = /\r\n|\r|\n/g;

export class LineEndings {
  private constructor(
    /** The ending of every break not in `exceptions`, and of breaks the person adds. */
    readonly usual: LineEnding,
    /** Sorted by `pos`. */
    readonly exceptions: readonly EndingException[],
  ) {}

  /** The endings of a file's text: the most frequent is the usual one (LF for a text without breaks). */
  static of(text: string): LineEndings {
    const counts = { '\n': 0, '\r\n': 0, '\r': 0 };
    const breaks: Array<{ pos: number; ending: LineEnding }> = [];
    let extra = 0; // characters of the file beyond the editor's one per break, so far
    for (const match of text.matchAll(BREAK)) {
      const ending = match[0] as LineEnding;
      counts[ending] += 1;
      breaks.push({ pos: match.index - extra, ending });
      extra += ending.length - 1;
    }
    // Ties go to LF, then CRLF: the endings a writer's tools most likely add next.
    const usual = (['\n', '\r\n', '\r'] as const).reduce((best, ending) =>
      counts[ending] > counts[best] ? ending : best,
    );
    return new LineEndings(
      usual,
      breaks.filter((found) => found.ending !== usual),
    );
  }

  /** The endings after an edit: breaks inside a replaced range are gone, new ones are usual, the rest move. */
  mapped(changes: ChangesLike): LineEndings {
    if (this.exceptions.length === 0) return this;
    const deleted: Array<[number, number]> = [];
    changes.iterChangedRanges((fromA, toA) => {
      if (toA > fromA) deleted.push([fromA, toA]);
    });
    const kept = this.exceptions.filter(({ pos }) => !deleted.some(([from, to]) => pos >= from && pos < to));
    return new LineEndings(
      this.usual,
      kept.map(({ pos, ending }) => ({ pos: changes.mapPos(pos, 1), ending })),
    );
  }

  /** The file's bytes for the editor's text (its lines joined by LF, as CodeMirror's `doc.toString()` gives). */
  bytesOf(editorText: string): string {
    if (this.usual === '\n' && this.exceptions.length === 0) return editorText;
    let bytes = '';
    let start = 0;
    let next = 0; // the next exception to look at
    for (let at = editorText.indexOf('\n'); at !== -1; at = editorText.indexOf('\n', at + 1)) {
      while (next < this.exceptions.length && (this.exceptions[next] as EndingException).pos < at) next += 1;
      const exception = this.exceptions[next];
      bytes += editorText.slice(start, at) + (exception?.pos === at ? exception.ending : this.usual);
      start = at + 1;
    }
    return bytes + editorText.slice(start);
  }
}
