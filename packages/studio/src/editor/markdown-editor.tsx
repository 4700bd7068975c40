import { Component, lazy, type ReactNode, Suspense } from 'react';
import type { MarkdownEditorProps } from './markdown-editor-props.js';

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
