// The body is shown as text to keep the example small; render it with your Markdown or MDX library.
import { previewReadOptions } from '@cms/next';
import { notFound } from 'next/navigation';
import { cacheFor, cms } from '../../../cms';
import { PreviewNotice } from '../../preview-notice';

export default async function Post({ params }: { params: Promise<{ slug: string }> }) {
  const { slug } = await params;
  const read = await previewReadOptions();
  const page = await cms.content.list({ type: 'post', path: slug, ...read, limit: 1 }, cacheFor(read));
  const post = page.data[0];
  if (!post) notFound();
  return (
    <article>
      <PreviewNotice read={read} path={`/posts/${slug}`} />
      <h1>{String(post.frontmatter.title)}</h1>
      <pre>{post.body}</pre>
    </article>
  );
}
