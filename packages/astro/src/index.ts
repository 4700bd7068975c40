export type { ReferenceCollections } from './collection-schema.js';
export { entryId } from './entry-data.js';
export {
  type CmsLiveCollectionFilter,
  type CmsLiveEntryFilter,
  CmsLiveError,
  type CmsLiveLoaderOptions,
  cmsLiveLoader,
} from './live-loader.js';
export { type CmsLoaderOptions, cmsLoader, type LoadReport } from './loader.js';
