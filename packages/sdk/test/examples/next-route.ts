// app/api/posts/route.ts in a Next.js app (App Router): the latest posts as JSON.
import { CmsError, createClient } from '@cms/sdk';

const cms = createClient({
  baseUrl: process.env.CMS_URL ?? 'http://127.0.0.1:3000',
  apiKey: process.env.CMS_API_KEY,
  project: 'default',
  environment: 'production',
});

export async function GET(request: Request): Promise<Response> {
  const page = Number(new URL(request.url).searchParams.get('page') ?? '1');
  try {
    const posts = await cms.content.list({
      type: 'post',
      limit: 10,
      offset: (page - 1) * 10,
      sort: 'createdAt',
      order: 'desc',
    });
    return Response.json({
      posts: posts.data.map((post) => ({ path: post.path, title: post.frontmatter.title })),
      hasMore: posts.pagination.hasMore,
    });
  } catch (error) {
    if (error instanceof CmsError) return Response.json({ error: error.code }, { status: error.status });
    throw error;
  }
}
