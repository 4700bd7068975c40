'use client';
// A post as the page shows it. In a preview it also follows the Studio's live preview: each change the
// writer makes (saved or not) arrives through subscribeToPreview and is shown at once, and a click on a
// marked element (the title, the author, a body line) puts the Studio's editor there.
import type { Document } from '@cms/sdk';
import { renderMarkdownWithSourceLines } from '@cms/sdk/markdown';
import { subscribeToPreview } from '@cms/sdk/preview';
import { useEffect, useMemo, useState } from 'react';

/** The name of a resolved author reference, or nothing. */
function authorName(value: unknown): string | null {
  const frontmatter = (value as { frontmatter?: { name?: unknown } } | null)?.frontmatter;
  return typeof frontmatter?.name === 'string' ? frontmatter.name : null;
}

export function PostView({ post, studioOrigin }: { post: Document; studioOrigin: string | null }) {
  const [shown, setShown] = useState(post);
  useEffect(() => setShown(post), [post]);
  useEffect(() => (studioOrigin ? subscribeToPreview(setShown, { studioOrigin }) : undefined), [studioOrigin]);
  // Body lines carry data-cms-source="<line>" for click-to-edit. The body is the writers' own Markdown,
  // raw HTML included, as on the published page.
  const html = useMemo(() => renderMarkdownWithSourceLines(shown.body), [shown.body]);
  const author = authorName(shown.frontmatter.author);
  return (
    <article>
      <h1 data-cms-field="title">{String(shown.frontmatter.title)}</h1>
      {author ? <p data-cms-field="author">By {author}</p> : null}
      {/* biome-ignore lint/security/noDangerouslySetInnerHtml: the CMS body rendered to HTML, as any Markdown page */}
      <div dangerouslySetInnerHTML={{ __html: html }} />
    </article>
  );
}
