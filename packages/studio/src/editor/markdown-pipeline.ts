/**
 * The Studio's one Markdown pipeline, for the preview and the MDX check alike: micromark parses the
 * body (GFM always, MDX's extensions for an MDX body) into mdast, mdast-util-to-hast turns it into
 * hast, the SDK's `rehypeSourceLines` marks each block with the body line it starts on (the preview
 * follows the cursor by those marks, as the live preview's click-to-edit does), hast-util-to-html
 * writes it and DOMPurify sanitises the result once, at the end, before it reaches the page.
 * Loaded on demand by `preview.tsx`; the MDX extensions come from `mdx-check.ts` in their own chunk.
 */
import { rehypeSourceLines } from '@cms/sdk/markdown';
import DOMPurify from 'dompurify';
import type { Element, ElementContent, Root as HastRoot } from 'hast';
import { toHtml } from 'hast-util-to-html';
import type { Nodes, Root } from 'mdast';
import { type Extension as FromMarkdownExtension, fromMarkdown } from 'mdast-util-from-markdown';
import { gfmFromMarkdown } from 'mdast-util-gfm';
import { type State, toHast } from 'mdast-util-to-hast';
import { gfm } from 'micromark-extension-gfm';
import type { Extension } from 'micromark-util-types';

/** Syntax beyond CommonMark and GFM: MDX's, for an MDX body. */
export interface SyntaxExtensions {
  extensions: Extension[];
  mdastExtensions: Array<FromMarkdownExtension | FromMarkdownExtension[]>;
}

/** Parses a body; throws (with a place) on a syntax error of an extension, as MDX's own build would. */
export function parseBody(body: string, syntax?: SyntaxExtensions): Root {
  return fromMarkdown(body, {
    extensions: [gfm(), ...(syntax?.extensions ?? [])],
    mdastExtensions: [gfmFromMarkdown(), ...(syntax?.mdastExtensions ?? [])],
  });
}

interface JsxNode {
  type: string;
  name?: string | null;
  children?: Nodes[];
}

const label = (name: string): Element => ({
  type: 'element',
  tagName: 'span',
  properties: { className: ['mdx-label'] },
  children: [{ type: 'text', value: name }],
});

/**
 * MDX nodes: the Studio does not run the site's components, so a component shows as a labelled
 * block holding its Markdown children; import/export lines and expressions show nothing.
 */
const mdxHandlers = {
  mdxJsxFlowElement(state: State, node: JsxNode): Element {
    const result: Element = {
      type: 'element',
      tagName: 'div',
      properties: { className: ['mdx-block'] },
      children: [label(node.name ?? 'Fragment'), ...(state.all(node as never) as ElementContent[])],
    };
    state.patch(node as never, result);
    return result;
  },
  mdxJsxTextElement(state: State, node: JsxNode): Element {
    return {
      type: 'element',
      tagName: 'span',
      properties: { className: ['mdx-inline'] },
      children: [label(node.name ?? 'Fragment'), ...(state.all(node as never) as ElementContent[])],
    };
  },
  mdxjsEsm: () => undefined,
  mdxFlowExpression: () => undefined,
  mdxTextExpression: () => undefined,
};

/** The preview's HTML of a body: sanitised, blocks marked `data-cms-source="<line>"`. */
export function renderPreview(body: string, syntax?: SyntaxExtensions): string {
  let tree: Root;
  try {
    tree = parseBody(body, syntax);
  } catch {
    // An MDX syntax error is shown in the editor (mdx-check.ts); meanwhile the preview shows the
    // body as plain Markdown rather than going blank.
    tree = parseBody(body);
  }
  const hast = toHast(tree, { allowDangerousHtml: true, handlers: mdxHandlers as never }) as HastRoot;
  rehypeSourceLines()(hast);
  return DOMPurify.sanitize(toHtml(hast, { allowDangerousHtml: true }), { USE_PROFILES: { html: true } });
}
