import { toHtml } from 'hast-util-to-html';
import { fromMarkdown } from 'mdast-util-from-markdown';
import { toHast } from 'mdast-util-to-hast';
import { rehypeSourceLines, type SourceLinesOptions } from './source-lines.js';

/**
 * Renders a Markdown body to HTML whose block elements carry `data-cms-source="<line>"` (CommonMark;
 * raw HTML in the body is kept, as a site's own Markdown renderer keeps it).
 * @example
 * const html = renderMarkdownWithSourceLines(doc.body); // <h1 data-cms-source="1">Hello</h1>...
 */
export function renderMarkdownWithSourceLines(markdown: string, options: SourceLinesOptions = {}): string {
  const hast = toHast(fromMarkdown(markdown), { allowDangerousHtml: true });
  rehypeSourceLines(options)(hast as Parameters<ReturnType<typeof rehypeSourceLines>>[0]);
  return toHtml(hast, { allowDangerousHtml: true });
}
