// The body is shown as text to keep the example small; render it with your Markdown or MDX library.
import { draftMode } from 'next/headers';
import { notFound } from 'next/navigation';
import { cacheFor, cms } from '../../../cms';

export default async function Post({ params }: { params: Promise<{ slug: string }> }) {
  const { slug } = await params;
  const { isEnabled } = await draftMode();
  const page = await cms.content.list({ type: 'post', path: slug, draft: isEnabled, limit: 1 }, cacheFor(isEnabled));
  const post = page.data[0];
  if (!post) notFound();
  return (
    <article>
      <h1>{String(post.frontmatter.title)}</h1>
      <pre>{post.body}</pre>
    </article>
  );
}
