// app/api/preview/route.ts: the Studio opens `<previewUrl>?token=...`; render the draft it names.
import { CmsError, createPreviewClient } from '@cms/sdk';

export async function GET(request: Request): Promise<Response> {
  const token = new URL(request.url).searchParams.get('token');
  if (!token) return new Response('Missing token', { status: 400 });
  try {
    const preview = createPreviewClient({ baseUrl: process.env.CMS_URL ?? 'http://127.0.0.1:3000', token });
    const draft = await preview.get({ resolve: ['author'] });
    return new Response(`<h1>${String(draft.frontmatter.title)}</h1>`, {
      headers: { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' },
    });
  } catch (error) {
    // UNAUTHORIZED: expired or forged token; CONFLICT: the draft moved on, ask the Studio for a new one.
    if (error instanceof CmsError) return new Response(error.message, { status: error.status });
    throw error;
  }
}
