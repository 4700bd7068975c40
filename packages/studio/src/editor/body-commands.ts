/**
 * What every way into the body does to it (the toolbar and its keys, image paste, drop, upload and
 * the media picker, module editor nodes, the live preview's click-to-edit), as transactions on a
 * CodeMirror state, without a view: the editor dispatches them (codemirror-editor.tsx) and the tests
 * run them on a bare state. Each works on the editor's text (`doc.toString()`, one LF per break) and
 * its positions, never on the file's bytes: body-state.ts gives the bytes back with their endings.
 */
import type { EditorState, TransactionSpec } from '@codemirror/state';
import { type FormatCommand, formatText, type TextEdit } from './markdown-format.js';
import { placeBlock } from './markdown-insert.js';

function specOf(edit: TextEdit, userEvent: string): TransactionSpec {
  return { changes: edit.changes, selection: edit.selection, scrollIntoView: true, userEvent };
}

/** A toolbar command on the main selection. */
export function formatSpec(state: EditorState, command: FormatCommand): TransactionSpec {
  const { from, to } = state.selection.main;
  return specOf(formatText(command, { doc: state.doc.toString(), from, to }), 'input.format');
}

/**
 * An image (or any one-line block) at `pos` (the selection when null), as a paragraph of its own
 * (markdown-insert.ts); the cursor ends after it.
 */
export function insertBlockSpec(state: EditorState, block: string, pos: number | null): TransactionSpec {
  const { from, to } = pos === null ? state.selection.main : { from: pos, to: pos };
  return specOf(placeBlock({ doc: state.doc.toString(), from, to }, block), 'input');
}

/**
 * The first `search` replaced by `replacement`, with `select` (offsets in the replacement) selected;
 * null when the text is gone (the person deleted it meanwhile).
 */
export function replaceSpec(
  state: EditorState,
  search: string,
  replacement: string,
  select?: { from: number; to: number },
): TransactionSpec | null {
  const index = state.doc.toString().indexOf(search);
  if (index < 0) return null;
  return {
    changes: { from: index, to: index + search.length, insert: replacement },
    ...(select ? { selection: { anchor: index + select.from, head: index + select.to } } : {}),
    scrollIntoView: true,
    userEvent: 'input',
  };
}

/** `text` in place of the selection, as it is; the cursor after it. */
export function replaceSelectionSpec(state: EditorState, text: string): TransactionSpec {
  return { ...state.replaceSelection(text), scrollIntoView: true, userEvent: 'input' };
}

/** The cursor at the start of line `line` (1-based, clamped), as the preview counts lines. */
export function lineStartSpec(state: EditorState, line: number): TransactionSpec {
  const target = state.doc.line(Math.min(Math.max(1, line), state.doc.lines));
  return { selection: { anchor: target.from }, scrollIntoView: true };
}
