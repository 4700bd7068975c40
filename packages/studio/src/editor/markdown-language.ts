import { commonmarkLanguage, markdownKeymap, pasteURLAsLink } from '@codemirror/lang-markdown';
import { foldService, LanguageSupport, syntaxTree } from '@codemirror/language';
import { Prec } from '@codemirror/state';
import { keymap } from '@codemirror/view';
import type { MarkdownHtml } from './markdown-html.js';

/**
 * The body editor's Markdown support: what `@codemirror/lang-markdown`'s `markdown()` gives (CommonMark,
 * Enter and Backspace continuing list and quote markup, a pasted URL over selected text making a link,
 * headings folding their sections), with its HTML part apart. `markdown()` always nests an HTML
 * language for HTML blocks and tags, and that language brings the CSS and JavaScript grammars for
 * `<style>` and `<script>` (about 40 kB of Brotli, most of the editor's CodeMirror beyond the core).
 * Here a body with no `<` in it starts without them; the HTML part (`markdown-html.ts`: the same
 * nesting and the closing tag typed for `<div>`) is fetched when the body holds a `<` or one is
 * typed, and the editor switches to it (`withMarkdownHtml`). The body is not highlighted, so the switch
 * is not seen. (`markdown()`'s HTML tag completion is left out: the editor has no autocompletion.)
 */

/** A node of the syntax tree (`@lezer/common`'s `SyntaxNode`). */
type SyntaxNode = ReturnType<ReturnType<typeof syntaxTree>['resolveInner']>;

/** `markdown()`'s heading folds (its `headerIndent`): a heading folds up to the next one of its level or above. */
function headingLevel(node: SyntaxNode): number | null {
  const match = /^(?:ATX|Setext)Heading(\d)$/.exec(node.name);
  return match ? Number(match[1]) : null;
}
const headingFolds = foldService.of((state, start, end) => {
  for (let node: SyntaxNode | null = syntaxTree(state).resolveInner(end, -1); node; node = node.parent) {
    if (node.from < start) break;
    const level = headingLevel(node);
    if (level === null) continue;
    let last = node;
    for (;;) {
      const next = last.nextSibling;
      const nextLevel = next ? headingLevel(next) : null;
      if (!next || (nextLevel !== null && nextLevel <= level)) break;
      last = next;
    }
    if (last.to > end) return { from: end, to: last.to };
  }
  return null;
});

/** The support `markdown()` returns, with HTML nested once `markdown-html.ts` has loaded. */
export function markdownSupport(html: MarkdownHtml | null): LanguageSupport {
  return new LanguageSupport(html?.language ?? commonmarkLanguage, [
    html?.support ?? [],
    headingFolds,
    pasteURLAsLink,
    Prec.high(keymap.of(markdownKeymap)),
  ]);
}

/** Whether text may hold HTML (or, in MDX, JSX): the HTML part is wanted. */
export function mayHoldHtml(text: string): boolean {
  return text.includes('<');
}

let loaded: MarkdownHtml | null = null;
let loading: Promise<MarkdownHtml> | null = null;

/** The HTML part if it has loaded already (an editor opened later starts with it). */
export function loadedMarkdownHtml(): MarkdownHtml | null {
  return loaded;
}

/** Fetches the HTML part once; a failed download is tried again on the next call. */
export function loadMarkdownHtml(): Promise<MarkdownHtml> {
  loading ??= import('./markdown-html.js').then(
    (module) => {
      loaded = module.markdownHtml;
      return loaded;
    },
    (error: unknown) => {
      loading = null;
      throw error;
    },
  );
  return loading;
}
