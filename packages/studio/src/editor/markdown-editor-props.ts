/**
 * What the body editor takes: `markdown-editor.tsx` (the lazy shell) and `codemirror-editor.tsx` (the
 * editor, in CodeMirror's chunk) both import it from here, so neither imports the other's module.
 */
import type { MutableRefObject } from 'react';
import type { BodyEditorHandle } from './body-editor-handle.js';

export interface MarkdownEditorProps {
  /** The text when the editor mounts or `resetKey` changes; afterwards the editor owns it. */
  value: string;
  resetKey: string;
  label: string;
  onChange(value: string): void;
  describedBy?: string;
  /** MDX bodies are checked for syntax errors as they are typed. */
  format?: 'md' | 'mdx';
  /** Filled with the one way into the editor (body-editor-handle.ts) while it is mounted. */
  handle?: MutableRefObject<BodyEditorHandle | null>;
  /** The line (1-based) the cursor is on, each time it moves to another: the preview follows it. */
  onCursorLine?(line: number): void;
  /** Image files pasted or dropped into the text, with where they were dropped (null: at the selection). */
  onImageFiles?(files: File[], pos: number | null): void;
}
