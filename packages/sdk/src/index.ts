export type { ErrorCode, Pagination } from '@cms/core';
export type { ClientOptions, CmsClient } from './client.js';
export { createClient } from './client.js';
export type { ContentArea, ContentGetOptions, ContentListQuery, TypedDocument } from './content.js';
export {
  CmsError,
  type CmsErrorCode,
  type CmsErrorDetails,
  CmsNetworkError,
  CmsTimeoutError,
  isCmsError,
} from './errors.js';
export type { MediaUploadInput, UploadProgress } from './media.js';
export type { Page } from './pagination.js';
export { createPreviewClient, type PreviewClaims, type PreviewClientOptions, readPreviewClaims } from './preview.js';
export type { RetryOptions } from './retry.js';
export type { CallOptions } from './transport.js';
export type * from './types.js';
export {
  DEFAULT_WEBHOOK_TOLERANCE_SECONDS,
  type VerifyWebhookInput,
  verifyWebhook,
  WebhookVerificationError,
  type WebhookVerificationReason,
} from './verify-webhook.js';
