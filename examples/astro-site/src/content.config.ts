// The quick-start `post` type as a collection. Server, key, project and environment come from
// CMS_SERVER_URL, CMS_API_KEY, CMS_PROJECT and CMS_ENVIRONMENT.

import { defineCollection } from 'astro:content';
import { cmsLoader } from '@cms/astro';

export const collections = {
  posts: defineCollection({ loader: cmsLoader({ type: 'post' }) }),
};
