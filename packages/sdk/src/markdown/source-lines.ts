/**
 * Click-to-edit down to the Markdown line (docs/live-preview.md): a rehype plugin that marks each
 * block element rendered from Markdown with `data-cms-source="<line>"`, the 1-based body line it
 * starts on, read from the positions the Markdown parser keeps. The text itself is left alone (no
 * hidden characters in strings, unlike "stega" encodings).
 */
import type { Element, Root, RootContent } from 'hast';

/** Elements that start a block of the body: what a click maps back to. */
const BLOCK_ELEMENTS = new Set([
  'p',
  'h1',
  'h2',
  'h3',
  'h4',
  'h5',
  'h6',
  'ul',
  'ol',
  'li',
  'blockquote',
  'pre',
  'table',
  'tr',
  'hr',
  'div',
  'dl',
  'dt',
  'dd',
  'figure',
  'section',
]);

/** Options of `rehypeSourceLines`. */
export interface SourceLinesOptions {
  /**
   * Added to every line: the body's first line in the file when the Markdown was parsed without its
   * frontmatter but the lines should count in the whole file (default 0: lines of the body).
   */
  lineOffset?: number;
}

function mark(node: Root | RootContent, offset: number): void {
  if (node.type === 'element') {
    const element = node as Element;
    const line = element.position?.start.line;
    if (BLOCK_ELEMENTS.has(element.tagName) && line !== undefined) {
      element.properties = { ...element.properties, dataCmsSource: String(line + offset) };
    }
  }
  if ('children' in node) for (const child of node.children) mark(child, offset);
}

/**
 * The rehype plugin (unified's plugin shape: a function returning the tree transformer).
 * @example
 * unified().use(remarkParse).use(remarkRehype).use(rehypeSourceLines).use(rehypeStringify)
 */
export function rehypeSourceLines(options: SourceLinesOptions = {}) {
  const offset = options.lineOffset ?? 0;
  return (tree: Root): void => mark(tree, offset);
}
