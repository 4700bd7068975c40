import { previewReadOptions } from '@cms/next';
import Link from 'next/link';
import { cacheFor, cms } from '../cms';
import { PreviewNotice } from './preview-notice';

export default async function Home() {
  const read = await previewReadOptions();
  const posts = await cms.content.list({ type: 'post', ...read, sort: 'path' }, cacheFor(read));
  return (
    <main>
      <PreviewNotice read={read} path="/" />
      <h1>Posts</h1>
      <ul>
        {posts.data.map((post) => (
          <li key={post.documentId}>
            <Link href={`/posts/${post.path}`}>{String(post.frontmatter.title)}</Link>
          </li>
        ))}
      </ul>
    </main>
  );
}
