/**
 * `@cms/sdk/markdown`: the CMS's one Markdown pipeline (GFM, sanitised by default, raw HTML only when
 * asked), used by sites, `@cms/astro` and the Studio's preview, with click-to-edit's source-line marks
 * (docs/live-preview.md "Click-to-edit").
 */
export {
  type MarkdownOptions,
  markdownToHast,
  parseMarkdown,
  renderMarkdown,
  type SyntaxExtensions,
} from './pipeline.js';
export { renderMarkdownWithSourceLines } from './render.js';
export { rehypeSourceLines, type SourceLinesOptions } from './source-lines.js';
