/**
 * The one handle on the body editor: what the toolbar, the image upload, module editor nodes and the
 * live preview do to it, without their importing CodeMirror (which loads in its own chunk): run a
 * formatting command on the selection, put text in, swap a placeholder for its final text, move to a line.
 */
import type { FormatCommand } from './markdown-format.js';

export interface BodyEditorHandle {
  /** Runs a toolbar command on the selection and gives the editor focus. */
  format(command: FormatCommand): void;
  /**
   * Inserts `text` (an image) at `pos` (the selection's place when null) as a paragraph of its own,
   * never inside another image or link (markdown-insert.ts).
   */
  insert(text: string, pos: number | null): void;
  /**
   * Replaces the first occurrence of `search` by `replacement` and selects `select` (offsets within
   * the replacement); false when the text is gone (the person deleted it meanwhile).
   */
  replace(search: string, replacement: string, select?: { from: number; to: number }): boolean;
  /** Replaces the selection with `text` as it is (module editor nodes) and gives the editor focus. */
  replaceSelection(text: string): void;
  /** Puts the cursor at the start of a line (1-based, clamped) and shows it (live preview clicks). */
  moveToLine(line: number): void;
}

/** Toolbar commands with their keys (CodeMirror's names, `Mod` = Ctrl, or Cmd on macOS) and ARIA's. */
export const FORMAT_SHORTCUTS: Record<FormatCommand, { keys: string; aria: string; hint: string }> = {
  bold: { keys: 'Mod-b', aria: 'Control+B Meta+B', hint: 'Ctrl+B' },
  italic: { keys: 'Mod-i', aria: 'Control+I Meta+I', hint: 'Ctrl+I' },
  link: { keys: 'Mod-k', aria: 'Control+K Meta+K', hint: 'Ctrl+K' },
  heading: { keys: 'Mod-Alt-1', aria: 'Control+Alt+1 Meta+Alt+1', hint: 'Ctrl+Alt+1' },
  bulletedList: { keys: 'Mod-Shift-8', aria: 'Control+Shift+8 Meta+Shift+8', hint: 'Ctrl+Shift+8' },
};
