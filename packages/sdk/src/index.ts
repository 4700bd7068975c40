export type { Change, ChangeKind, Document, ErrorCode, FeedPagination, Pagination } from '@cms/core';
export type { AuditFilterQuery, AuditListQuery } from './audit.js';
export { documentTag, pathTag, typeTag } from './cache-tags.js';
export type { ChangesListQuery, ChangesPage } from './changes.js';
export type { ClientOptions, CmsClient } from './client.js';
export { createClient } from './client.js';
export type { ContentArea, ContentGetOptions, ContentListQuery } from './content.js';
export {
  CmsError,
  type CmsErrorCode,
  type CmsErrorDetails,
  CmsNetworkError,
  CmsTimeoutError,
  isCmsError,
} from './errors.js';
export type { MediaUploadInput, UploadProgress } from './media.js';
export { DEFAULT_PRESET_WIDTHS, type ImageOptions, imageUrl, type SrcsetEntry, srcset } from './media-image-url.js';
export type { Page } from './pagination.js';
export { createPreviewClient, type PreviewClaims, type PreviewClientOptions, readPreviewClaims } from './preview.js';
export type { RetryOptions } from './retry.js';
export {
  type CallOptions,
  type CallSpec,
  createTransport,
  type NextFetchOptions,
  type RetryInfo,
  type Transport,
  type TransportOptions,
} from './transport.js';
export type {
  ClientTypes,
  DocumentOf,
  GeneratedType,
  ResolvedFrontmatter,
  TypeArg,
  TypedDocument,
  TypeMap,
} from './typed-content.js';
export type * from './types.js';
export {
  DEFAULT_WEBHOOK_TOLERANCE_SECONDS,
  type VerifyWebhookInput,
  verifyWebhook,
  WebhookVerificationError,
  type WebhookVerificationReason,
} from './verify-webhook.js';
