/**
 * JSON Schemas of the document write endpoints (interface.md "Content endpoints"). `documentSchema`
 * is the document response, shared with the read area.
 */

const uuid = { type: 'string', format: 'uuid' } as const;
const timestamp = { type: 'string', format: 'date-time' } as const;
const anyObject = { type: 'object', additionalProperties: true } as const;

/** Wire shape of a document (interface.md "Document"). */
export const documentSchema = {
  type: 'object',
  required: [
    'documentId',
    'translationGroupId',
    'project',
    'environment',
    'path',
    'type',
    'locale',
    'format',
    'isDeleted',
    'hasUnpublishedChanges',
    'version',
    'publishedVersion',
    'draftRevision',
    'frontmatter',
    'body',
    'resolveErrors',
    'createdBy',
    'updatedBy',
    'createdAt',
    'updatedAt',
  ],
  properties: {
    documentId: uuid,
    translationGroupId: uuid,
    project: { type: 'string' },
    environment: { type: 'string' },
    path: { type: 'string' },
    type: { type: 'string' },
    locale: { type: 'string' },
    format: { type: 'string', enum: ['md', 'mdx'] },
    isDeleted: { type: 'boolean' },
    hasUnpublishedChanges: { type: 'boolean' },
    version: { type: 'integer' },
    publishedVersion: { type: ['integer', 'null'] },
    draftRevision: { type: 'integer' },
    frontmatter: anyObject,
    body: { type: 'string' },
    resolveErrors: anyObject,
    createdBy: { type: 'string' },
    updatedBy: { type: 'string' },
    createdAt: timestamp,
    updatedAt: timestamp,
  },
} as const;

/** Path parameter of every `/content/{documentId}` route. */
export const documentIdParamsSchema = {
  type: 'object',
  required: ['documentId'],
  additionalProperties: false,
  properties: { documentId: uuid },
} as const;

/** Longest accepted body text; the request body limit applies too. */
const MAX_BODY_TEXT = 5_000_000;

/** `POST /content` body (interface.md "Create body"; `translationGroupId` per decisions.md §3). */
export const createDocumentBodySchema = {
  type: 'object',
  required: ['type', 'path', 'frontmatter'],
  additionalProperties: false,
  properties: {
    type: { type: 'string', minLength: 1 },
    path: { type: 'string' },
    locale: { type: 'string' },
    format: { type: 'string', enum: ['md', 'mdx'], default: 'md' },
    frontmatter: anyObject,
    body: { type: 'string', maxLength: MAX_BODY_TEXT, default: '' },
    translationGroupId: uuid,
  },
} as const;

/**
 * `PUT /content/{documentId}` body: complete frontmatter and body (partial updates are not
 * supported, so a missing body is an error rather than an erased one) and the revision last fetched.
 */
export const updateDocumentBodySchema = {
  type: 'object',
  required: ['frontmatter', 'body', 'draftRevision'],
  additionalProperties: false,
  properties: {
    frontmatter: anyObject,
    body: { type: 'string', maxLength: MAX_BODY_TEXT },
    draftRevision: { type: 'integer', minimum: 1 },
  },
} as const;

/** `POST /content/{documentId}/duplicate` body, optional: the copy's path (default `<path>-copy`, `-copy-2`, ...). */
export const duplicateDocumentBodySchema = {
  type: ['object', 'null'],
  additionalProperties: false,
  properties: { path: { type: 'string' } },
} as const;

/** `POST /content/{documentId}/publish` body, optional. */
export const publishDocumentBodySchema = {
  type: ['object', 'null'],
  additionalProperties: false,
  properties: { changeSummary: { type: 'string', maxLength: 1000 } },
} as const;

/** `POST /content/{documentId}/publish` answer. */
export const publishResultSchema = {
  type: 'object',
  required: [
    'documentId',
    'version',
    'publishedVersion',
    'hasUnpublishedChanges',
    'publishedAt',
    'publishedBy',
    'changeSummary',
  ],
  properties: {
    documentId: uuid,
    version: { type: 'integer' },
    publishedVersion: { type: ['integer', 'null'] },
    hasUnpublishedChanges: { type: 'boolean' },
    publishedAt: timestamp,
    publishedBy: { type: 'string' },
    changeSummary: { type: ['string', 'null'] },
  },
} as const;

/** `POST /content/{documentId}/unpublish` answer. */
export const unpublishResultSchema = {
  type: 'object',
  required: ['documentId', 'version', 'publishedVersion', 'hasUnpublishedChanges'],
  properties: {
    documentId: uuid,
    version: { type: 'integer' },
    publishedVersion: { type: 'null' },
    hasUnpublishedChanges: { type: 'boolean' },
  },
} as const;

/** `DELETE /content/{documentId}` answer. */
export const deleteResultSchema = {
  type: 'object',
  required: ['documentId', 'isDeleted', 'deletedAt', 'deletedBy'],
  properties: { documentId: uuid, isDeleted: { type: 'boolean' }, deletedAt: timestamp, deletedBy: { type: 'string' } },
} as const;

/** `POST /content/{documentId}/restore` answer. */
export const restoreResultSchema = {
  type: 'object',
  required: ['documentId', 'isDeleted', 'restoredAt', 'restoredBy'],
  properties: {
    documentId: uuid,
    isDeleted: { type: 'boolean' },
    restoredAt: timestamp,
    restoredBy: { type: 'string' },
  },
} as const;

/** `X-CMS-Schema-Hash`: required, but its absence is SCHEMA_HASH_MISMATCH (409), not a validation error. */
const schemaHashHeader = {
  type: 'string',
  description: "Required: the server's schema hash; missing or different is SCHEMA_HASH_MISMATCH (409).",
} as const;

/** Header schema of update: the schema hash. */
export const schemaHashHeadersSchema = {
  type: 'object',
  properties: { 'x-cms-schema-hash': schemaHashHeader },
} as const;

/** Header schema of create: the schema hash and the optional locale override. */
export const createDocumentHeadersSchema = {
  type: 'object',
  properties: {
    'x-cms-schema-hash': schemaHashHeader,
    'x-cms-locale': { type: 'string', description: 'Locale of the new document when the body has none (BCP 47).' },
  },
} as const;
