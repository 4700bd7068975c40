import { defaultKeymap, history, historyKeymap, indentWithTab, simplifySelection } from '@codemirror/commands';
import { diagnosticCount, linter, lintGutter } from '@codemirror/lint';
import { Compartment, Prec, type TransactionSpec } from '@codemirror/state';
import { EditorView, highlightSpecialChars, keymap, lineNumbers, placeholder } from '@codemirror/view';
import { useEffect, useId, useRef, useState } from 'react';
import { formatSpec, insertBlockSpec, lineStartSpec, replaceSelectionSpec, replaceSpec } from './body-commands.js';
import type { BodyEditorHandle } from './body-editor-handle.js';
import { FORMAT_SHORTCUTS } from './body-editor-handle.js';
import { bodyOf, bodyState } from './body-state.js';
import type { MarkdownEditorProps } from './markdown-editor-props.js';
import type { FormatCommand } from './markdown-format.js';
import { loadedMarkdownHtml, loadMarkdownHtml, markdownSupport, mayHoldHtml } from './markdown-language.js';
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

/** Runs a toolbar command on the editor's main selection. */
function runFormat(view: EditorView, command: FormatCommand): boolean {
  view.dispatch(formatSpec(view.state, command));
  view.focus();
  return true;
}

/**
 * Esc then Tab leaves the editor (codemirror.net's tab example; Tab indents otherwise): Esc collapses
 * a selection, as it always did, and lets the next Tab move focus on, however long after, until
 * another key is pressed, the text is clicked or focus leaves. (CodeMirror's own escape gives two
 * seconds, and none at all when Esc had a selection to collapse: that Tab indented the line.)
 */
const escapeThenTab = [
  Prec.highest(
    keymap.of([
      {
        key: 'Escape',
        run: (view) => {
          simplifySelection(view);
          view.setTabFocusMode(true);
          return true;
        },
      },
    ]),
  ),
  EditorView.domEventHandlers({
    keydown(event, view) {
      if (!['Escape', 'Tab', 'Shift', 'Control', 'Alt', 'Meta'].includes(event.key)) view.setTabFocusMode(false);
      return false;
    },
    mousedown(_event, view) {
      view.setTabFocusMode(false);
      return false;
    },
    blur(_event, view) {
      view.setTabFocusMode(false);
      return false;
    },
  }),
];

/** The image files of a paste or a drop (other files and text go the usual way). */
function imageFiles(list: FileList | null | undefined): File[] {
  return [...(list ?? [])].filter((file) => file.type.startsWith('image/'));
}

/** The handle the toolbar and the image upload use (body-editor-handle.ts): body-commands.ts dispatched. */
function handleFor(view: EditorView): BodyEditorHandle {
  const run = (spec: TransactionSpec) => {
    view.dispatch(spec);
    view.focus();
  };
  return {
    format: (command) => void runFormat(view, command),
    insert: (text, pos) => view.dispatch(insertBlockSpec(view.state, text, pos)),
    replace(search, replacement, select) {
      const spec = replaceSpec(view.state, search, replacement, select);
      if (!spec) return false;
      view.dispatch(spec);
      if (select) view.focus();
      return true;
    },
    replaceSelection: (text) => run(replaceSelectionSpec(view.state, text)),
    moveToLine: (line) => run(lineStartSpec(view.state, line)),
  };
}

export default function CodeMirrorEditor({
  value,
  resetKey,
  label,
  onChange,
  describedBy,
  format = 'md',
  handle,
  onImageFiles,
  onCursorLine,
}: MarkdownEditorProps) {
  const host = useRef<HTMLDivElement>(null);
  const view = useRef<EditorView | null>(null);
  const changed = useRef(onChange);
  changed.current = onChange;
  const filesGiven = useRef(onImageFiles);
  filesGiven.current = onImageFiles;
  const cursorMoved = useRef(onCursorLine);
  cursorMoved.current = onCursorLine;
  const cursorLine = useRef(1);
  const checking = useRef(new Compartment());
  const language = useRef(new Compartment());
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
    setProblem(null);
    checkedFormat.current = format;
    let destroyed = false;
    let htmlWanted = loadedMarkdownHtml() !== null;
    /** Fetches the HTML part of the Markdown support (markdown-language.ts) and switches to it. */
    const wantHtml = () => {
      if (htmlWanted) return;
      htmlWanted = true;
      loadMarkdownHtml().then(
        (html) => {
          if (!destroyed) editor.dispatch({ effects: language.current.reconfigure(markdownSupport(html)) });
        },
        () => {
          htmlWanted = false; // not loaded (offline?): the next `<` typed tries again
        },
      );
    };
    const editor = new EditorView({
      parent: host.current,
      // Lines split on every ending; body-state.ts keeps each break's ending for the bytes handed back.
      state: bodyState(value, [
        lineNumbers(),
        history(),
        highlightSpecialChars(),
        EditorView.lineWrapping,
        language.current.of(markdownSupport(loadedMarkdownHtml())),
        placeholder('Write the body in Markdown…'),
        EDITOR_THEME,
        checking.current.of(format === 'mdx' ? mdxLint() : []),
        // Tab indents; Esc then Tab moves focus out.
        escapeThenTab,
        keymap.of([
          ...Object.entries(FORMAT_SHORTCUTS).map(([command, shortcut]) => ({
            key: shortcut.keys,
            run: (view: EditorView) => runFormat(view, command as FormatCommand),
          })),
          ...defaultKeymap,
          ...historyKeymap,
          indentWithTab,
        ]),
        // Pasted or dropped images are uploaded and inserted (image-upload.ts); other content as usual.
        EditorView.domEventHandlers({
          paste(event) {
            const files = imageFiles(event.clipboardData?.files);
            if (files.length === 0 || !filesGiven.current) return false;
            event.preventDefault();
            filesGiven.current(files, null);
            return true;
          },
          drop(event, view) {
            const files = imageFiles(event.dataTransfer?.files);
            if (files.length === 0 || !filesGiven.current) return false;
            event.preventDefault();
            filesGiven.current(files, view.posAtCoords({ x: event.clientX, y: event.clientY }));
            return true;
          },
        }),
        EditorView.contentAttributes.of({
          'aria-label': label,
          spellcheck: 'true',
          'aria-describedby': [describedBy, problemId].filter(Boolean).join(' '),
        }),
        EditorView.contentAttributes.of((editor) =>
          diagnosticCount(editor.state) > 0 ? { 'aria-invalid': 'true' } : null,
        ),
        EditorView.updateListener.of((update) => {
          if (update.docChanged) {
            changed.current(bodyOf(update.state));
            if (!htmlWanted) {
              update.changes.iterChanges((_fromA, _toA, _fromB, _toB, inserted) => {
                if (mayHoldHtml(inserted.toString())) wantHtml();
              });
            }
          }
          if (update.selectionSet || update.docChanged) {
            const line = update.state.doc.lineAt(update.state.selection.main.head).number;
            if (line !== cursorLine.current) {
              cursorLine.current = line;
              cursorMoved.current?.(line);
            }
          }
        }),
      ]),
    });
    view.current = editor;
    if (mayHoldHtml(value)) wantHtml();
    // The text scrolls inside its box, so the scroller is a keyboard stop of its own (WCAG 2.1.1; axe's
    // scrollable-region rule does not count the contenteditable inside as focusable content).
    editor.scrollDOM.tabIndex = 0;
    if (handle) handle.current = handleFor(editor);
    return () => {
      destroyed = true;
      if (handle) handle.current = null;
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
