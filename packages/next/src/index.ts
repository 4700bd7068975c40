export { type DraftModeHandlerOptions, draftModeHandler } from './draft-mode-handler.js';
export { type ExitPreviewHandlerOptions, exitPreviewHandler } from './exit-preview-handler.js';
export * from './preview-read-options.js';
export { isReleaseId, RELEASE_PREVIEW_COOKIE } from './release-cookie.js';
export { type RevalidateHandlerOptions, revalidateHandler, tagsOf } from './revalidate-handler.js';
export { DEFAULT_WEBHOOK_BODY_LIMIT } from './webhook-body.js';
