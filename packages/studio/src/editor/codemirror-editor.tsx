import { defaultKeymap, history, historyKeymap, indentWithTab } from '@codemirror/commands';
import { markdown } from '@codemirror/lang-markdown';
import { diagnosticCount, linter, lintGutter } from '@codemirror/lint';
import { Compartment, EditorState } from '@codemirror/state';
import { EditorView, highlightSpecialChars, keymap, lineNumbers, placeholder } from '@codemirror/view';
import { useEffect, useId, useRef, useState } from 'react';
import { lineSeparatorOf } from './line-endings.js';
import type { MarkdownEditorProps } from './markdown-editor.js';
import type { MdxProblem } from './mdx-check.js';
import { mdxDiagnostic } from './mdx-diagnostic.js';

/**
 * CodeMirror's default greys are too faint for WCAG AA; these meet it. The font is set on the
 * scroller, which holds both the gutter and the text: with the font on the text only, the line
 * numbers were set in another monospace font (where `ui-monospace` exists, as on macOS) whose
 * baseline sits elsewhere, so the numbers did not line up with their lines.
 */
const EDITOR_THEME = EditorView.theme({
  '.cm-placeholder': { color: '#57606a' },
  '.cm-gutters': { color: '#57606a', backgroundColor: '#f6f8fa' },
  '.cm-scroller': { fontFamily: 'ui-monospace, SFMono-Regular, Menlo, Consolas, monospace' },
  '.cm-lintRange-error': {
    textDecorationLine: 'underline',
    textDecorationStyle: 'wavy',
    textDecorationColor: '#a40e26',
  },
});

/** The MDX parser (with acorn) comes in its own chunk, fetched when an MDX body is first opened. */
let mdxChecker: Promise<(body: string) => MdxProblem | null> | null = null;
function loadMdxChecker() {
  mdxChecker ??= import('./mdx-check.js').then(
    (module) => module.checkMdx,
    (error: unknown) => {
      mdxChecker = null;
      throw error;
    },
  );
  return mdxChecker;
}

export default function CodeMirrorEditor({
  value,
  resetKey,
  label,
  onChange,
  describedBy,
  inserter,
  format = 'md',
}: MarkdownEditorProps) {
  const host = useRef<HTMLDivElement>(null);
  const view = useRef<EditorView | null>(null);
  const changed = useRef(onChange);
  changed.current = onChange;
  const checking = useRef(new Compartment());
  const checkedFormat = useRef(format);
  const [problem, setProblem] = useState<MdxProblem | null>(null);
  const problemId = useId();

  /** MDX bodies are parsed 300 ms after typing stops; the first error is marked in the text. */
  const mdxLint = () => [
    linter(
      async (editor) => {
        const text = editor.state.sliceDoc();
        let found: MdxProblem | null;
        try {
          found = (await loadMdxChecker())(text);
        } catch {
          return []; // the checker did not load: no marks rather than a broken editor
        }
        if (editor.state.sliceDoc() !== text) return []; // typed on meanwhile: the next run reports
        setProblem(found);
        return found ? [mdxDiagnostic(editor.state.doc, found)] : [];
      },
      { delay: 300 },
    ),
    lintGutter(),
  ];

  // biome-ignore lint/correctness/useExhaustiveDependencies: the editor is rebuilt only on resetKey
  useEffect(() => {
    if (!host.current) return;
    const separator = lineSeparatorOf(value);
    setProblem(null);
    checkedFormat.current = format;
    const editor = new EditorView({
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
          EDITOR_THEME,
          checking.current.of(format === 'mdx' ? mdxLint() : []),
          // Tab indents; Esc then Tab moves focus out (CodeMirror's documented escape).
          keymap.of([...defaultKeymap, ...historyKeymap, indentWithTab]),
          EditorView.contentAttributes.of({
            'aria-label': label,
            spellcheck: 'true',
            'aria-describedby': [describedBy, problemId].filter(Boolean).join(' '),
          }),
          EditorView.contentAttributes.of((editor) =>
            diagnosticCount(editor.state) > 0 ? { 'aria-invalid': 'true' } : null,
          ),
          EditorView.updateListener.of((update) => {
            if (update.docChanged) changed.current(update.state.sliceDoc());
          }),
        ],
      }),
    });
    view.current = editor;
    if (inserter) {
      inserter.current = (text: string) => {
        editor.dispatch(editor.state.replaceSelection(text), { scrollIntoView: true });
        editor.focus();
      };
    }
    return () => {
      if (inserter) inserter.current = null;
      view.current = null;
      editor.destroy();
    };
  }, [resetKey]);

  // A new document's format can change while it is edited: check MDX only while it is MDX.
  // biome-ignore lint/correctness/useExhaustiveDependencies: mdxLint is rebuilt each render; format decides
  useEffect(() => {
    if (!view.current || checkedFormat.current === format) return;
    checkedFormat.current = format;
    view.current.dispatch({ effects: checking.current.reconfigure(format === 'mdx' ? mdxLint() : []) });
    if (format !== 'mdx') setProblem(null);
  }, [format]);

  return (
    <div className="markdown-editor-frame">
      <div className="markdown-editor" ref={host} />
      <p id={problemId} className="mdx-problem" aria-live="polite">
        {problem ? (
          <>
            <strong>MDX error</strong> at line {problem.line}, column {problem.column}: {problem.message}
          </>
        ) : null}
      </p>
    </div>
  );
}
