// Posts read on each request (src/pages/live): published ones, or the draft a preview token opens.

import { defineLiveCollection } from 'astro:content';
import { cmsLiveLoader } from '@cms/astro';

export const collections = {
  livePosts: defineLiveCollection({ loader: cmsLiveLoader({ type: 'post', sourceLines: true }) }),
};
