import DOMPurify from 'dompurify';
import { marked } from 'marked';

/**
 * The preview's renderer (marked, then DOMPurify), loaded on demand by `preview.tsx`.
 *
 * MDX's JSX is shown as labelled blocks (the Studio does not run the site's components); import and
 * export lines are dropped. Everything goes through DOMPurify before it reaches the page.
 */
export function mdxToMarkdown(body: string): string {
  return body
    .replace(/^(import|export)\s.*$/gm, '')
    .replace(
      /<([A-Z][\w.]*)\b[^>]*\/>/g,
      (_m, name: string) => `<div class="mdx-block"><span class="mdx-label">${name}</span></div>`,
    )
    .replace(
      /<([A-Z][\w.]*)\b[^>]*>/g,
      (_m, name: string) => `<div class="mdx-block"><span class="mdx-label">${name}</span>\n\n`,
    )
    .replace(/<\/([A-Z][\w.]*)>/g, '\n\n</div>');
}

export function renderPreview(body: string, format: 'md' | 'mdx'): string {
  const source = format === 'mdx' ? mdxToMarkdown(body) : body;
  const html = marked.parse(source, { async: false, gfm: true });
  return DOMPurify.sanitize(html, { USE_PROFILES: { html: true } });
}
