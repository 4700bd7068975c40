/**
 * `POST /content/batch`: many draft creates and updates in one request and one database
 * transaction, for bulk clients (`cms push`). Each operation is applied or refused on its own
 * (a savepoint per operation): a stale `draftRevision` is that operation's CONFLICT, never an
 * overwrite, and the others still apply. The answer lists one result per operation, in order.
 */
import { type Static, Type } from 'typebox';
import { ERROR_CODES, type ErrorCode } from '../errors/error-codes.js';
import {
  CreateDocumentBodySchema,
  DocumentFormatSchema,
  DocumentSchema,
  MAX_BODY_TEXT,
  SchemaHashHeadersSchema,
  SourceTextSchema,
} from './content.routes.js';
import { defineRoute } from './define-route.js';
import { AnyObject, StringEnum, Uuid } from './shapes.js';

/** Most operations of one batch. */
export const MAX_BATCH_OPERATIONS = 100;

/** A create: the `POST /content` body with `op: "create"`. */
export const BatchCreateOperationSchema = Type.Object(
  {
    op: Type.Literal('create'),
    type: CreateDocumentBodySchema.properties.type,
    path: Type.String(),
    locale: Type.Optional(Type.String()),
    // Defaults inside a union are not applied by the validator: the service fills `md` and `''`.
    format: Type.Optional(DocumentFormatSchema),
    frontmatter: AnyObject,
    body: Type.Optional(Type.String({ maxLength: MAX_BODY_TEXT })),
    source: Type.Optional(SourceTextSchema),
    translationGroupId: Type.Optional(Uuid),
  },
  { additionalProperties: false },
);

/** An update: the `PUT /content/{documentId}` body with `op: "update"` and the document id. */
export const BatchUpdateOperationSchema = Type.Object(
  {
    op: Type.Literal('update'),
    documentId: Uuid,
    frontmatter: AnyObject,
    body: Type.String({ maxLength: MAX_BODY_TEXT }),
    source: Type.Optional(SourceTextSchema),
    draftRevision: Type.Integer({ minimum: 1 }),
  },
  { additionalProperties: false },
);

/** Body of `POST /content/batch`. */
export const ContentBatchBodySchema = Type.Object(
  {
    operations: Type.Array(Type.Union([BatchCreateOperationSchema, BatchUpdateOperationSchema]), {
      minItems: 1,
      maxItems: MAX_BATCH_OPERATIONS,
    }),
  },
  { additionalProperties: false },
);
export type ContentBatchBody = Static<typeof ContentBatchBodySchema>;
export type BatchOperation = ContentBatchBody['operations'][number];

/** One operation's outcome: the document as written, or the error the single route would answer. */
export const BatchResultSchema = Type.Union([
  Type.Object({ ok: Type.Literal(true), status: Type.Integer(), document: DocumentSchema }),
  Type.Object({
    ok: Type.Literal(false),
    status: Type.Integer(),
    error: Type.Object({
      code: StringEnum(ERROR_CODES as readonly ErrorCode[]),
      message: Type.String(),
      details: AnyObject,
    }),
  }),
]);
export type BatchResult = Static<typeof BatchResultSchema>;

/** Answer of `POST /content/batch`: one result per operation, in the order sent, and the counts. */
export const ContentBatchResultSchema = Type.Object({
  results: Type.Array(BatchResultSchema),
  applied: Type.Integer(),
  failed: Type.Integer(),
});
export type ContentBatchResult = Static<typeof ContentBatchResultSchema>;

export const contentBatchRoute = defineRoute({
  id: 'content.batch',
  kind: 'command',
  method: 'POST',
  path: '/api/v1/content/batch',
  summary: 'Create and update many drafts in one request; each operation succeeds or fails on its own',
  target: 'environment',
  request: { body: ContentBatchBodySchema, headers: SchemaHashHeadersSchema },
  response: { status: 200, envelope: 'single', schema: ContentBatchResultSchema },
  errors: ['CONFLICT', 'CONTENT_PATH_CONFLICT', 'NOT_FOUND'],
});
