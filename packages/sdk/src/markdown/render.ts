import { type MarkdownOptions, renderMarkdown } from './pipeline.js';
import type { SourceLinesOptions } from './source-lines.js';

/**
 * Renders a Markdown body to HTML whose block elements carry `data-cms-source="<line>"`, through the
 * one pipeline (pipeline.ts: GFM, sanitised; raw HTML in the body only with `html: 'keep'`).
 * @example
 * const html = renderMarkdownWithSourceLines(doc.body); // <h1 data-cms-source="1">Hello</h1>...
 */
export function renderMarkdownWithSourceLines(
  markdown: string,
  options: SourceLinesOptions & Pick<MarkdownOptions, 'html'> = {},
): string {
  const { html, ...lines } = options;
  return renderMarkdown(markdown, { sourceLines: lines, ...(html ? { html } : {}) });
}
