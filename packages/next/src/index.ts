export * from './handlers.js';
export * from './preview-read-options.js';
export { isReleaseId, RELEASE_PREVIEW_COOKIE } from './release-cookie.js';
