import { describe, expectTypeOf, it } from 'vitest';
import { defineType } from './define-type.js';
import { field } from './field-builders.js';
import type { InferFrontmatter, ResolvedDocument } from './infer-frontmatter.js';

const author = defineType({ name: 'author', fields: { name: field.string().required(), bio: field.string() } });
const post = defineType({
  name: 'post',
  fields: {
    title: field.string().required(),
    views: field.number().default(0),
    subtitle: field.string().nullable(),
    status: field.enum(['draft', 'live']).required(),
    publishedOn: field.date(),
    author: field.reference(author).required(),
    editor: field.reference('author'),
    tags: field.array(field.string()),
    related: field.array(field.reference('post')),
    seo: field.object({ description: field.string(), reviewer: field.reference(author) }).required(),
  },
});

describe('InferFrontmatter', () => {
  it('types required, defaulted, optional and nullable fields', () => {
    type Post = InferFrontmatter<typeof post>;
    expectTypeOf<Post['title']>().toEqualTypeOf<string>();
    expectTypeOf<Post['views']>().toEqualTypeOf<number>();
    expectTypeOf<Post['subtitle']>().toEqualTypeOf<string | null | undefined>();
    expectTypeOf<Post['status']>().toEqualTypeOf<'draft' | 'live'>();
    expectTypeOf<Post['publishedOn']>().toEqualTypeOf<string | undefined>();
    expectTypeOf<Post['tags']>().toEqualTypeOf<string[] | undefined>();
    expectTypeOf<Post['seo']['description']>().toEqualTypeOf<string | undefined>();
  });

  it('types references as id strings unless resolved', () => {
    type Post = InferFrontmatter<typeof post>;
    expectTypeOf<Post['author']>().toEqualTypeOf<string>();
    expectTypeOf<Post['editor']>().toEqualTypeOf<string | undefined>();
    expectTypeOf<Post['related']>().toEqualTypeOf<string[] | undefined>();
    expectTypeOf<Post['seo']['reviewer']>().toEqualTypeOf<string | undefined>();
  });

  it('types resolved references as resolved objects, with the target frontmatter when known', () => {
    type Post = InferFrontmatter<typeof post, 'author' | 'editor' | 'seo.reviewer'>;
    expectTypeOf<Post['author']>().toEqualTypeOf<ResolvedDocument<{ name: string; bio?: string }> | null>();
    expectTypeOf<Post['editor']>().toEqualTypeOf<ResolvedDocument | null | undefined>();
    expectTypeOf<NonNullable<Post['seo']['reviewer']>['frontmatter']['name']>().toEqualTypeOf<string>();
    expectTypeOf<Post['related']>().toEqualTypeOf<string[] | undefined>();
  });
});
