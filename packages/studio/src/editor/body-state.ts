/**
 * The body editor's state: CodeMirror's document (lines split on LF, CRLF and lone CR alike, each
 * break one position) with the file's line endings beside it (line-endings.ts), so that the text the
 * editor hands back is the file's bytes with only the edits in them. Every command works on the
 * editor's own text and positions (body-commands.ts); `bodyOf` is the one way back to bytes.
 */
import { EditorState, type Extension, StateField } from '@codemirror/state';
import { LineEndings } from './line-endings.js';

const lineEndings = StateField.define<LineEndings>({
  create: (state) => LineEndings.of(state.doc.toString()),
  update: (endings, transaction) => (transaction.docChanged ? endings.mapped(transaction.changes) : endings),
});

/** A state for `body` (the file's text, any line endings) with `extensions`. */
export function bodyState(body: string, extensions: Extension = []): EditorState {
  return EditorState.create({
    doc: body,
    extensions: [lineEndings.init(() => LineEndings.of(body)), extensions],
  });
}

/** The body's bytes: the editor's lines joined by the ending each break had (the usual one for new breaks). */
export function bodyOf(state: EditorState): string {
  const endings = state.field(lineEndings, false);
  const text = state.doc.toString();
  return endings ? endings.bytesOf(text) : text;
}
