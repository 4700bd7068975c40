import type { FastifyRequest } from 'fastify';
import { defineAction } from '../../../actions/define-action.js';
import type { DocumentLifecycleService } from './document-lifecycle.service.js';
import { SCHEMA_HASH_HEADER } from './document-validation.js';
import {
  createDocumentBodySchema,
  createDocumentHeadersSchema,
  deleteResultSchema,
  documentIdParamsSchema,
  documentSchema,
  duplicateDocumentBodySchema,
  restoreResultSchema,
  schemaHashHeadersSchema,
  updateDocumentBodySchema,
} from './documents.schemas.js';
import type { CreateDocumentInput, DocumentsService, UpdateDocumentInput } from './documents.service.js';

type DocumentParams = { documentId: string };

/** Optional locale override (interface.md "Common header rules"). */
const LOCALE_HEADER = 'x-cms-locale';

/** A header as sent, trimmed (first value when repeated). */
function headerValue(request: FastifyRequest, name: string): string | undefined {
  const raw = request.headers[name];
  return (Array.isArray(raw) ? raw[0] : raw)?.trim();
}

const sentSchemaHash = (request: FastifyRequest) => headerValue(request, SCHEMA_HASH_HEADER);

/**
 * Draft writes may be made with `content:write` or with `content:write:draft` (decisions.md §3:
 * that scope creates and updates drafts only), so these routes need one of the two.
 */
const DRAFT_WRITE = ['content:write', 'content:write:draft'] as const;

/** Document routes: create, update, duplicate, delete, restore (interface.md "Content endpoints"). */
export function documentActions(documents: DocumentsService, lifecycle: DocumentLifecycleService) {
  return [
    defineAction<unknown, unknown, Omit<CreateDocumentInput, 'schemaHash'>>({
      id: 'content.create',
      kind: 'command',
      method: 'POST',
      path: '/api/v1/content',
      summary: 'Create a draft document',
      permissions: [],
      anyPermissions: DRAFT_WRITE,
      target: 'environment',
      request: { body: createDocumentBodySchema, headers: createDocumentHeadersSchema },
      response: { status: 201, envelope: 'single', schema: documentSchema },
      handler: async ({ body }, ctx, { request }) =>
        documents.create(ctx, {
          ...body,
          schemaHash: sentSchemaHash(request),
          localeHeader: headerValue(request, LOCALE_HEADER),
        }),
    }),
    defineAction<DocumentParams, unknown, Omit<UpdateDocumentInput, 'schemaHash' | 'documentId'>>({
      id: 'content.update',
      kind: 'command',
      method: 'PUT',
      path: '/api/v1/content/{documentId}',
      summary: "Replace a document's draft (frontmatter and body)",
      permissions: [],
      anyPermissions: DRAFT_WRITE,
      target: 'environment',
      request: { params: documentIdParamsSchema, body: updateDocumentBodySchema, headers: schemaHashHeadersSchema },
      response: { status: 200, envelope: 'single', schema: documentSchema },
      handler: async ({ params, body }, ctx, { request }) =>
        documents.update(ctx, { ...body, documentId: params.documentId, schemaHash: sentSchemaHash(request) }),
    }),
    defineAction<DocumentParams, unknown, { path?: string } | null | undefined>({
      id: 'content.duplicate',
      kind: 'command',
      method: 'POST',
      path: '/api/v1/content/{documentId}/duplicate',
      summary: 'Copy a document into a new draft at a new path',
      permissions: ['content:write'],
      target: 'environment',
      request: { params: documentIdParamsSchema, body: duplicateDocumentBodySchema },
      response: { status: 201, envelope: 'single', schema: documentSchema },
      handler: async ({ params, body }, ctx) =>
        documents.duplicate(ctx, {
          documentId: params.documentId,
          ...(body?.path !== undefined ? { path: body.path } : {}),
        }),
    }),
    defineAction<DocumentParams>({
      id: 'content.delete',
      kind: 'command',
      method: 'DELETE',
      path: '/api/v1/content/{documentId}',
      summary: 'Soft-delete a document',
      permissions: ['content:delete'],
      target: 'environment',
      request: { params: documentIdParamsSchema },
      response: { status: 200, envelope: 'single', schema: deleteResultSchema },
      handler: async ({ params }, ctx) => lifecycle.remove(ctx, params),
    }),
    defineAction<DocumentParams>({
      id: 'content.restore',
      kind: 'command',
      method: 'POST',
      path: '/api/v1/content/{documentId}/restore',
      summary: 'Restore a soft-deleted document',
      permissions: ['content:write'],
      target: 'environment',
      request: { params: documentIdParamsSchema },
      response: { status: 200, envelope: 'single', schema: restoreResultSchema },
      handler: async ({ params }, ctx) => lifecycle.restore(ctx, params),
    }),
  ];
}
