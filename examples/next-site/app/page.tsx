import { draftMode } from 'next/headers';
import Link from 'next/link';
import { cacheFor, cms } from '../cms';

export default async function Home() {
  const { isEnabled } = await draftMode();
  const posts = await cms.content.list({ type: 'post', draft: isEnabled, sort: 'path' }, cacheFor(isEnabled));
  return (
    <main>
      <h1>Posts{isEnabled ? ' (draft mode)' : ''}</h1>
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
