export { type CmsLoaderOptions, cmsLoader, entryId, type LoadReport } from './loader.js';
