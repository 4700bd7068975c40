// The quick-start types as collections. Server, key, project and environment come from CMS_SERVER_URL,
// CMS_API_KEY, CMS_PROJECT and CMS_ENVIRONMENT; the key needs content:read and schema:read (the
// collections' schemas are built from the CMS schema, so `data` is typed and checked).

import { defineCollection } from 'astro:content';
import { cmsLoader } from '@cms/astro';

export const collections = {
  authors: defineCollection({ loader: cmsLoader({ type: 'author' }) }),
  // A post's author is `{ collection: 'authors', id }`, as Astro's reference('authors') gives: getEntry() reads it.
  posts: defineCollection({ loader: cmsLoader({ type: 'post', references: { author: 'authors' } }) }),
};
