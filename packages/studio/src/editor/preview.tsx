import { useEffect, useRef, useState } from 'react';

type Render = (body: string, format: 'md' | 'mdx') => string;

/** marked and DOMPurify come in their own chunk, fetched the first time a preview is shown. */
let renderer: Promise<Render> | null = null;
function loadRenderer(): Promise<Render> {
  renderer ??= import('./preview-render.js').then(
    (module) => module.renderPreview,
    (error: unknown) => {
      renderer = null; // the next render tries again
      throw error;
    },
  );
  return renderer;
}

/** The rendered draft, updated a moment after typing stops. */
export function Preview({ body, format }: { body: string; format: 'md' | 'mdx' }) {
  const [html, setHtml] = useState<string | null>(null);
  const [failed, setFailed] = useState(false);
  const shown = useRef(false);
  useEffect(() => {
    let live = true;
    // The first render is immediate; later ones wait until typing pauses.
    const timer = window.setTimeout(
      () => {
        loadRenderer().then(
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
  return (
    <section className="preview" aria-label="Preview">
      {html === null ? (
        <p className="muted" role={failed ? 'alert' : 'status'}>
          {failed ? 'The preview could not be loaded. Reload the page to try again.' : 'Rendering the preview…'}
        </p>
      ) : (
        // biome-ignore lint/security/noDangerouslySetInnerHtml: sanitised by DOMPurify in preview-render.ts
        <div className="prose" dangerouslySetInnerHTML={{ __html: html }} />
      )}
    </section>
  );
}
