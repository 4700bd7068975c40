import { previewReadOptions } from '@cms/next';
import Link from 'next/link';
import { cacheFor, cms } from '../cms';
import { PreviewNotice } from './preview-notice';

/** The name of a resolved author reference, or nothing. */
function authorName(value: unknown): string | null {
  const frontmatter = (value as { frontmatter?: { name?: unknown } } | null)?.frontmatter;
  return typeof frontmatter?.name === 'string' ? frontmatter.name : null;
}

export default async function Home() {
  const read = await previewReadOptions();
  const posts = await cms.content.list({ type: 'post', resolve: ['author'], ...read, sort: 'path' }, cacheFor(read));
  return (
    <main>
      <PreviewNotice read={read} path="/" />
      <h1>Posts</h1>
      <ul>
        {posts.data.map((post) => {
          const author = authorName(post.frontmatter.author);
          return (
            <li key={post.documentId}>
              <Link href={`/posts/${post.path}`}>{String(post.frontmatter.title)}</Link>
              {author ? ` by ${author}` : null}
            </li>
          );
        })}
      </ul>
    </main>
  );
}
