/**
 * The Studio's preview of a body, through the CMS's one Markdown pipeline (`@cms/sdk/markdown`, which
 * sites and `@cms/astro` render with too): GFM, MDX's syntax for an MDX body (from `mdx-check.ts`, in
 * its own chunk), task boxes named by their items, blocks marked with the body line they start on (the
 * preview follows the cursor by those marks, as the live preview's click-to-edit does). The Studio asks
 * for raw HTML (a writer sees their HTML blocks) and sanitises the result itself with DOMPurify, once,
 * at the end, before it reaches the page. Loaded on demand by `preview.tsx`.
 */
import { type MarkdownOptions, renderMarkdown, type SyntaxExtensions } from '@cms/sdk/markdown';
import DOMPurify from 'dompurify';
import type { Element, ElementContent } from 'hast';
import type { Nodes } from 'mdast';
import type { State } from 'mdast-util-to-hast';

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
  const options: MarkdownOptions = { handlers: mdxHandlers as never, sourceLines: true, html: 'keep' };
  let html: string;
  try {
    html = renderMarkdown(body, { ...options, ...(syntax ? { syntax } : {}) });
  } catch {
    // An MDX syntax error is shown in the editor (mdx-check.ts); meanwhile the preview shows the
    // body as plain Markdown rather than going blank.
    html = renderMarkdown(body, options);
  }
  return DOMPurify.sanitize(html, { USE_PROFILES: { html: true } });
}
