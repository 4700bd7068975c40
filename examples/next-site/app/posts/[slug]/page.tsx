// One post, read by its path with its author resolved: the read is tagged with the post and the
// author, so publishing either refreshes this page and no other post's.
import { isPreviewRead, previewReadOptions } from '@cms/next';
import { notFound } from 'next/navigation';
import { cacheFor, cms, studioOrigin } from '../../../cms';
import { PostView } from '../../post-view';
import { PreviewNotice } from '../../preview-notice';

/**
 * Every published post is rendered by `next build` and kept until a webhook says it changed (a new
 * post's page is rendered on its first visit, then kept the same way).
 */
export async function generateStaticParams() {
  const slugs: Array<{ slug: string }> = [];
  for await (const post of cms.content.iterate({ type: 'post', limit: 100 }, { next: { revalidate: 3600 } }))
    slugs.push({ slug: post.path });
  return slugs;
}

export default async function Post({ params }: { params: Promise<{ slug: string }> }) {
  const { slug } = await params;
  const read = await previewReadOptions();
  const page = await cms.content.list(
    { type: 'post', path: slug, resolve: ['author'], ...read, limit: 1 },
    cacheFor(read),
  );
  const post = page.data[0];
  if (!post) notFound();
  return (
    <main>
      <PreviewNotice read={read} path={`/posts/${slug}`} />
      <PostView post={post} studioOrigin={isPreviewRead(read) ? studioOrigin() : null} />
    </main>
  );
}
