import { defineAction } from '../../../actions/define-action.js';
import type { SortOrder } from '../../../storage/repositories/versions.repository.js';
import type { DocumentLifecycleService } from './document-lifecycle.service.js';
import {
  restoreVersionResultSchema,
  versionEntrySchema,
  versionParamsSchema,
  versionSnapshotSchema,
  versionsQuerySchema,
} from './document-versions.schemas.js';
import type { DocumentVersionsService } from './document-versions.service.js';
import {
  documentIdParamsSchema,
  publishDocumentBodySchema,
  publishResultSchema,
  unpublishResultSchema,
} from './documents.schemas.js';

type DocumentParams = { documentId: string };
type VersionParams = { documentId: string; version: number };

/** Publishing and version history routes (interface.md "Content endpoints"). */
export function documentVersionActions(lifecycle: DocumentLifecycleService, versions: DocumentVersionsService) {
  return [
    defineAction<DocumentParams, unknown, { changeSummary?: string } | null | undefined>({
      id: 'content.publish',
      kind: 'command',
      method: 'POST',
      path: '/api/v1/content/{documentId}/publish',
      summary: 'Publish the draft as a new immutable version',
      permissions: ['content:publish'],
      target: 'environment',
      request: { params: documentIdParamsSchema, body: publishDocumentBodySchema },
      response: { status: 200, envelope: 'single', schema: publishResultSchema },
      handler: async ({ params, body }, ctx) =>
        lifecycle.publish(ctx, {
          documentId: params.documentId,
          ...(body?.changeSummary !== undefined ? { changeSummary: body.changeSummary } : {}),
        }),
    }),
    defineAction<DocumentParams>({
      id: 'content.unpublish',
      kind: 'command',
      method: 'POST',
      path: '/api/v1/content/{documentId}/unpublish',
      summary: 'Withdraw the published version (history kept)',
      permissions: ['content:publish'],
      target: 'environment',
      request: { params: documentIdParamsSchema },
      response: { status: 200, envelope: 'single', schema: unpublishResultSchema },
      handler: async ({ params }, ctx) => lifecycle.unpublish(ctx, params),
    }),
    defineAction<DocumentParams, { limit: number; offset: number; order: SortOrder }>({
      id: 'content.versions.list',
      kind: 'query',
      method: 'GET',
      path: '/api/v1/content/{documentId}/versions',
      summary: "List a document's published versions, newest first (order=asc: oldest first)",
      permissions: ['content:read'],
      target: 'environment',
      request: { params: documentIdParamsSchema, query: versionsQuerySchema },
      response: { status: 200, envelope: 'paginated', schema: versionEntrySchema },
      handler: async ({ params, query }, ctx) => versions.list(ctx, { ...params, ...query }),
    }),
    defineAction<VersionParams>({
      id: 'content.versions.get',
      kind: 'query',
      method: 'GET',
      path: '/api/v1/content/{documentId}/versions/{version}',
      summary: 'Get one published version with its snapshot',
      permissions: ['content:read'],
      target: 'environment',
      request: { params: versionParamsSchema },
      response: { status: 200, envelope: 'single', schema: versionSnapshotSchema },
      handler: async ({ params }, ctx) => versions.get(ctx, params),
    }),
    defineAction<VersionParams>({
      id: 'content.versions.restore',
      kind: 'command',
      method: 'POST',
      path: '/api/v1/content/{documentId}/versions/{version}/restore',
      summary: 'Restore a version into the draft',
      permissions: ['content:write'],
      target: 'environment',
      request: { params: versionParamsSchema },
      response: { status: 200, envelope: 'single', schema: restoreVersionResultSchema },
      handler: async ({ params }, ctx) => versions.restore(ctx, params),
    }),
  ];
}
