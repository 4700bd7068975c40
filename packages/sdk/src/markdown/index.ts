/** `@cms/sdk/markdown`: Markdown rendering for click-to-edit (docs/live-preview.md "Click-to-edit"). */
export { renderMarkdownWithSourceLines } from './render.js';
export { rehypeSourceLines, type SourceLinesOptions } from './source-lines.js';
