import type { SyntaxExtensions } from '@cms/sdk/markdown';
import { useEffect, useRef, useState } from 'react';

type Render = (body: string, format: 'md' | 'mdx') => string;

/**
 * The pipeline (micromark, mdast-util-to-hast, DOMPurify) comes in its own chunk, fetched the first
 * time a preview is shown; MDX's syntax (with acorn) only for an MDX body.
 */
let renderer: Promise<Render> | null = null;
function loadRenderer(format: 'md' | 'mdx'): Promise<Render> {
  const pipeline = import('./markdown-pipeline.js');
  const mdx: Promise<SyntaxExtensions | undefined> =
    format === 'mdx' ? import('./mdx-check.js').then((module) => module.mdxSyntax()) : Promise.resolve(undefined);
  const loading = Promise.all([pipeline, mdx]).then(
    ([module, syntax]): Render =>
      (body, as) =>
        module.renderPreview(body, as === 'mdx' ? syntax : undefined),
  );
  if (format === 'md') {
    renderer ??= loading;
    return renderer.catch((error: unknown) => {
      renderer = null; // the next render tries again
      throw error;
    });
  }
  return loading;
}

/**
 * Scrolls the preview so that the block the cursor's line belongs to (the last block starting at or
 * above it, by the `data-cms-source` marks of the pipeline) is at the top of the preview's box.
 */
function follow(box: HTMLElement, line: number): void {
  let target: HTMLElement | null = null;
  for (const block of box.querySelectorAll<HTMLElement>('[data-cms-source]')) {
    if (Number(block.dataset.cmsSource) > line) break;
    target = block;
  }
  const top = target ? target.getBoundingClientRect().top - box.getBoundingClientRect().top + box.scrollTop : 0;
  box.scrollTo({ top: Math.max(0, top - 8) });
}

/** The rendered draft, updated a moment after typing stops; it follows the cursor's line when given. */
export function Preview({ body, format, cursorLine }: { body: string; format: 'md' | 'mdx'; cursorLine?: number }) {
  const [html, setHtml] = useState<string | null>(null);
  const [failed, setFailed] = useState(false);
  const shown = useRef(false);
  const box = useRef<HTMLElement>(null);
  useEffect(() => {
    let live = true;
    // The first render is immediate; later ones wait until typing pauses.
    const timer = window.setTimeout(
      () => {
        loadRenderer(format).then(
          (render) => {
            if (!live) return;
            shown.current = true;
            setFailed(false);
            setHtml(render(body, format));
          },
          () => live && setFailed(true),
        );
      },
      shown.current ? 200 : 0,
    );
    return () => {
      live = false;
      window.clearTimeout(timer);
    };
  }, [body, format]);
  // After each render and each move of the cursor to another line: scroll to its block.
  useEffect(() => {
    if (box.current && html !== null && cursorLine !== undefined) follow(box.current, cursorLine);
  }, [html, cursorLine]);
  return (
    // Focusable: the preview scrolls inside its box, and keyboard users scroll it too (WCAG 2.1.1).
    // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable region needs keyboard access
    <section className="preview" aria-label="Preview" ref={box} tabIndex={0}>
      {html === null ? (
        <p className="muted" role={failed ? 'alert' : 'status'}>
          {failed ? 'The preview could not be loaded. Reload the page to try again.' : 'Rendering the preview…'}
        </p>
      ) : (
        // biome-ignore lint/security/noDangerouslySetInnerHtml: sanitised by DOMPurify in markdown-pipeline.ts
        <div className="prose" dangerouslySetInnerHTML={{ __html: html }} />
      )}
    </section>
  );
}
