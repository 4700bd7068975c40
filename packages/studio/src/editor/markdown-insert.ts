/**
 * Where an inserted image goes in the body, as a text transform like the toolbar's (markdown-format.ts):
 * a paragraph of its own, apart from the text around it by blank lines (an image on the line before a
 * paragraph's text, with no blank line, is part of that paragraph), and never inside another image or
 * link (an upload selects the new image's alt text; a second upload then went into it).
 */
import type { TextEdit, TextState } from './markdown-format.js';

/** Images and links written inline: `![alt](address)`, `[text](address)`. */
const INLINE_LINK = /!?\[[^\]\n]*\]\([^)\n]*\)/g;

function lineStartOf(doc: string, pos: number): number {
  return doc.lastIndexOf('\n', pos - 1) + 1;
}

function lineEndOf(doc: string, pos: number): number {
  const end = doc.indexOf('\n', pos);
  return end === -1 ? doc.length : end;
}

const blank = (text: string) => text.trim() === '';

/** The end of the image or link the selection is inside of (not the selection of the whole of it), if any. */
function endOfLinkAround(doc: string, from: number, to: number): number | null {
  const start = lineStartOf(doc, from);
  for (const match of doc.slice(start, lineEndOf(doc, from)).matchAll(INLINE_LINK)) {
    const linkFrom = start + match.index;
    const linkTo = linkFrom + match[0].length;
    const inside = from >= linkFrom && to <= linkTo && (from > linkFrom || to < linkTo);
    if (inside) return linkTo;
  }
  return null;
}

/**
 * Puts `block` (one line of Markdown, an image) in place of the selection, on a line of its own with
 * a blank line between it and any text before or after it; the cursor ends just after it.
 */
export function placeBlock(state: TextState, block: string): TextEdit {
  const { doc } = state;
  const around = endOfLinkAround(doc, state.from, state.to);
  const from = around ?? state.from;
  const to = around ?? state.to;
  const lineStart = lineStartOf(doc, from);
  const lineEnd = lineEndOf(doc, to);
  const previousLine = lineStart === 0 ? '' : doc.slice(lineStartOf(doc, lineStart - 1), lineStart - 1);
  const nextLine = lineEnd === doc.length ? '' : doc.slice(lineEnd + 1, lineEndOf(doc, lineEnd + 1));
  const before = !blank(doc.slice(lineStart, from)) ? '\n\n' : blank(previousLine) ? '' : '\n';
  const after = !blank(doc.slice(to, lineEnd)) ? '\n\n' : blank(nextLine) ? '' : '\n';
  const cursor = from + before.length + block.length;
  return { changes: [{ from, to, insert: `${before}${block}${after}` }], selection: { anchor: cursor, head: cursor } };
}
