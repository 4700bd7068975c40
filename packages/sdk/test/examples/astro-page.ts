// src/pages/blog/[slug].astro in an Astro site: the frontmatter script is this function's body.
//   ---
//   const { post, author } = await loadPost(Astro.params.slug);
//   if (!post) return Astro.redirect('/404');
//   ---
//   <h1>{post.frontmatter.title}</h1> <p>by {author}</p> <article set:html={render(post.body)} />
import { createClient, defineType, field } from './sdk-and-schema.js';

export const author = defineType({ name: 'author', fields: { name: field.string().required() } });
export const post = defineType({
  name: 'post',
  fields: { title: field.string().required(), slug: field.string(), author: field.reference(author) },
});

export function blogClient(baseUrl: string, apiKey: string) {
  return createClient({ baseUrl, apiKey, project: 'default', environment: 'production' });
}

export async function loadPost(cms: ReturnType<typeof blogClient>, slug: string) {
  const { data } = await cms.content.list({ type: post, slug, limit: 1, resolve: ['author'] });
  const found = data[0];
  // `author` is typed as the resolved author (or null): `resolve` asked for it.
  return { post: found ?? null, author: found?.frontmatter.author?.frontmatter.name ?? 'anonymous' };
}
