import { defaultKeymap, history, historyKeymap, indentWithTab } from '@codemirror/commands';
import { markdown } from '@codemirror/lang-markdown';
import { EditorState } from '@codemirror/state';
import { EditorView, highlightSpecialChars, keymap, lineNumbers, placeholder } from '@codemirror/view';
import { useEffect, useRef } from 'react';
import { lineSeparatorOf } from './line-endings.js';
import type { MarkdownEditorProps } from './markdown-editor.js';

/** CodeMirror's default greys are too faint for WCAG AA; these meet it. */
const CONTRAST_THEME = EditorView.theme({
  '.cm-placeholder': { color: '#57606a' },
  '.cm-gutters': { color: '#57606a', backgroundColor: '#f6f8fa' },
  '.cm-content': { fontFamily: 'ui-monospace, SFMono-Regular, Menlo, Consolas, monospace' },
});

/**
 * The body as source text (CodeMirror 6, markdown language): what is typed is what is saved, and
 * what is not touched is given back byte for byte, line endings and BOM included. Loaded on demand
 * by `markdown-editor.tsx`: CodeMirror is the largest part of the Studio and only this page needs it.
 */
export default function CodeMirrorEditor({
  value,
  resetKey,
  label,
  onChange,
  describedBy,
  inserter,
}: MarkdownEditorProps) {
  const host = useRef<HTMLDivElement>(null);
  const changed = useRef(onChange);
  changed.current = onChange;

  // biome-ignore lint/correctness/useExhaustiveDependencies: the editor is rebuilt only on resetKey
  useEffect(() => {
    if (!host.current) return;
    const separator = lineSeparatorOf(value);
    const view = new EditorView({
      parent: host.current,
      state: EditorState.create({
        doc: value,
        extensions: [
          EditorState.lineSeparator.of(separator),
          lineNumbers(),
          history(),
          highlightSpecialChars(),
          EditorView.lineWrapping,
          markdown(),
          placeholder('Write the body in Markdown…'),
          CONTRAST_THEME,
          // Tab indents; Esc then Tab moves focus out (CodeMirror's documented escape).
          keymap.of([...defaultKeymap, ...historyKeymap, indentWithTab]),
          EditorView.contentAttributes.of({
            'aria-label': label,
            spellcheck: 'true',
            ...(describedBy ? { 'aria-describedby': describedBy } : {}),
          }),
          EditorView.updateListener.of((update) => {
            if (update.docChanged) changed.current(update.state.sliceDoc());
          }),
        ],
      }),
    });
    if (inserter) {
      inserter.current = (text: string) => {
        view.dispatch(view.state.replaceSelection(text), { scrollIntoView: true });
        view.focus();
      };
    }
    return () => {
      if (inserter) inserter.current = null;
      view.destroy();
    };
  }, [resetKey]);

  return <div className="markdown-editor" ref={host} />;
}
