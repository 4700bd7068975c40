import { Component, lazy, type MutableRefObject, type ReactNode, Suspense } from 'react';
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

/** CodeMirror and its language packages come in their own chunk, fetched when a body is first edited. */
const CodeMirrorEditor = lazy(() => import('./codemirror-editor.js'));

/** A failed chunk download (offline, or a redeploy replaced it) says so instead of blanking the page. */
class LoadFailure extends Component<{ children: ReactNode }, { failed: boolean }> {
  override state = { failed: false };
  static getDerivedStateFromError() {
    return { failed: true };
  }
  override render() {
    if (!this.state.failed) return this.props.children;
    return (
      <div className="markdown-editor markdown-editor-loading" role="alert">
        The body editor could not be loaded. Your other changes are still here; reload the page to try again.
      </div>
    );
  }
}

/**
 * The body editor. Until CodeMirror has loaded, a box of the same size says so (the text is not
 * editable meanwhile, so nothing typed can be lost).
 */
export function MarkdownEditor(props: MarkdownEditorProps) {
  return (
    <LoadFailure>
      <Suspense
        fallback={
          <div className="markdown-editor markdown-editor-loading" role="status">
            Loading the editor…
          </div>
        }
      >
        <CodeMirrorEditor {...props} />
      </Suspense>
    </LoadFailure>
  );
}
