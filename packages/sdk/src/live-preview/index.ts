/**
 * `@cms/sdk/preview`: the site side of the Studio's live preview (docs/live-preview.md) and the preview
 * client that reads a draft with a preview token.
 */
export { createPreviewClient, type PreviewClaims, type PreviewClientOptions, readPreviewClaims } from '../preview.js';
export {
  isPreviewMessage,
  isTrustedOrigin,
  PREVIEW_MESSAGE_TYPE,
  type PreviewDocumentMessage,
  type PreviewFocusMessage,
  type PreviewMessage,
  type PreviewReadyMessage,
  type PreviewTokenMessage,
  type SiteToStudioMessage,
  type StudioToSiteMessage,
} from './protocol.js';
export {
  type EventSourceClass,
  type EventSourceLike,
  type ReloadOnPreviewChangeOptions,
  reloadOnPreviewChange,
} from './reload.js';
export { type PreviewWindow, type SubscribeToPreviewOptions, subscribeToPreview } from './subscribe.js';
