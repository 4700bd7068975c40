/**
 * The one Markdown pipeline of the CMS: the SDK's renderer (`@cms/astro` with `sourceLines`, sites)
 * and the Studio's preview both render through it, so a body reads the same everywhere. micromark
 * parses CommonMark with GFM (tables, task lists, strikethrough, autolinks, footnotes) and any syntax
 * the caller adds (the Studio adds MDX's for an MDX body) into mdast; mdast-util-to-hast makes hast;
 * task-list boxes get the item's text as their name; blocks are marked with `data-cms-source`; the
 * tree is sanitised (GitHub's rules, hast-util-sanitize) unless raw HTML is asked for.
 */
import type { Element, ElementContent, Root as HastRoot, RootContent } from 'hast';
import { defaultSchema, sanitize } from 'hast-util-sanitize';
import { toHtml } from 'hast-util-to-html';
import type { Root } from 'mdast';
import { type Extension as FromMarkdownExtension, fromMarkdown } from 'mdast-util-from-markdown';
import { gfmFromMarkdown } from 'mdast-util-gfm';
import { type Handlers, toHast } from 'mdast-util-to-hast';
import { gfm } from 'micromark-extension-gfm';
import type { Extension } from 'micromark-util-types';
import { rehypeSourceLines, type SourceLinesOptions } from './source-lines.js';

/** Syntax beyond CommonMark and GFM (MDX's, say): micromark's extensions and their mdast ones. */
export interface SyntaxExtensions {
  extensions: Extension[];
  mdastExtensions: Array<FromMarkdownExtension | FromMarkdownExtension[]>;
}

/** Options of `renderMarkdown` and `markdownToHast`. */
export interface MarkdownOptions {
  /** Syntax on top of CommonMark and GFM; its nodes need `handlers`. */
  syntax?: SyntaxExtensions;
  /** How the extra syntax's mdast nodes become hast (mdast-util-to-hast's `handlers`). */
  handlers?: Handlers;
  /** Mark blocks with `data-cms-source="<line>"` (true, or the options of `rehypeSourceLines`); default off. */
  sourceLines?: boolean | SourceLinesOptions;
  /**
   * Raw HTML in the body. `'drop'` (the default): left out, and everything else sanitised with
   * GitHub's rules (no scripts, event handlers or `javascript:` links). `'keep'`: passed through as
   * written and nothing is sanitised: for bodies you trust, or with a sanitiser of your own after
   * (the Studio's preview runs DOMPurify on the result).
   */
  html?: 'drop' | 'keep';
}

/** Parses a body; throws (with a place) on a syntax error of an extension, as MDX's own build would. */
export function parseMarkdown(body: string, syntax?: SyntaxExtensions): Root {
  return fromMarkdown(body, {
    extensions: [gfm(), ...(syntax?.extensions ?? [])],
    mdastExtensions: [gfmFromMarkdown(), ...(syntax?.mdastExtensions ?? [])],
  });
}

/** GitHub's rules, plus the source-line marks and the task boxes' names and state. */
const SCHEMA = {
  ...defaultSchema,
  attributes: {
    ...defaultSchema.attributes,
    '*': [...(defaultSchema.attributes?.['*'] ?? []), 'dataCmsSource'],
    input: [...(defaultSchema.attributes?.input ?? []), 'ariaLabel', 'checked'],
  },
};

/** The text of an element, without nested lists (a task item's own words). */
function ownText(node: ElementContent | RootContent): string {
  if (node.type === 'text') return node.value;
  if (node.type !== 'element' || node.tagName === 'ul' || node.tagName === 'ol') return '';
  return node.children.map(ownText).join('');
}

/** A task list's checkboxes have no label of their own: each gets its item's text as its name. */
function nameTaskBoxes(node: HastRoot | Element): void {
  for (const child of node.children) {
    if (child.type !== 'element') continue;
    if (child.tagName === 'li') {
      const box = findBox(child);
      if (box) box.properties = { ...box.properties, ariaLabel: ownText(child).trim() || 'Task' };
    }
    nameTaskBoxes(child);
  }
}

function findBox(item: Element): Element | null {
  for (const child of item.children) {
    if (child.type !== 'element') continue;
    if (child.tagName === 'input' && child.properties?.type === 'checkbox') return child;
    if (child.tagName === 'p') return findBox(child);
  }
  return null;
}

/** The hast of a body, through the whole pipeline (sanitised unless `html: 'keep'`). */
export function markdownToHast(body: string, options: MarkdownOptions = {}): HastRoot {
  const keep = options.html === 'keep';
  const tree = toHast(parseMarkdown(body, options.syntax), {
    allowDangerousHtml: keep,
    ...(options.handlers ? { handlers: options.handlers } : {}),
  }) as HastRoot;
  nameTaskBoxes(tree);
  if (options.sourceLines) rehypeSourceLines(options.sourceLines === true ? {} : options.sourceLines)(tree);
  return keep ? tree : (sanitize(tree, SCHEMA) as HastRoot);
}

/**
 * Renders a Markdown body to HTML: GFM, sanitised, raw HTML left out unless `html: 'keep'`.
 * @example
 * const html = renderMarkdown(doc.body, { sourceLines: true }); // <h1 data-cms-source="1">Hello</h1>...
 */
export function renderMarkdown(body: string, options: MarkdownOptions = {}): string {
  return toHtml(markdownToHast(body, options), { allowDangerousHtml: options.html === 'keep' });
}
