import type { FastifyRequest } from 'fastify';
import { type AnyAction, defineAction } from '../../../actions/define-action.js';
import { documentIdParamsSchema, documentSchema } from '../documents/documents.schemas.js';
import {
  getDocumentQuerySchema,
  listDocumentsQuerySchema,
  localeHeaderSchema,
  overviewQuerySchema,
  overviewSchema,
  variantsSchema,
} from './content-reads.schemas.js';
import type { ContentReadsService, GetDocumentInput, ListDocumentsInput } from './content-reads.service.js';
import { PREVIEW_READ_ACTION_ID } from './preview-auth-strategy.js';

type DocumentIdParams = { documentId: string };
type GetQuery = Omit<GetDocumentInput, 'documentId' | 'headerLocale'>;
type ListQuery = Omit<ListDocumentsInput, 'headerLocale'>;

/** `X-CMS-Locale` as sent (validated by the action's header schema). */
function headerLocale(request: FastifyRequest): { headerLocale?: string } {
  const value = request.headers['x-cms-locale'];
  return typeof value === 'string' ? { headerLocale: value } : {};
}

/** The content read actions (interface.md "Content endpoints"); handlers call one service method. */
export function contentReadsActions(service: ContentReadsService): AnyAction[] {
  return [
    defineAction<unknown, ListQuery>({
      id: 'content.list',
      kind: 'query',
      method: 'GET',
      path: '/api/v1/content',
      summary: 'List documents of a type: published content by default, drafts with draft=true',
      permissions: ['content:read'],
      target: 'environment',
      repeatableQuery: ['resolve'],
      request: { query: listDocumentsQuerySchema, headers: localeHeaderSchema },
      response: { status: 200, envelope: 'paginated', schema: documentSchema },
      cli: { alias: 'content list', inputMode: 'flags' },
      handler: ({ query }, ctx, { request }) => service.list(ctx, { ...query, ...headerLocale(request) }),
    }),
    defineAction<unknown, { type?: string[] }>({
      id: 'content.overview',
      kind: 'query',
      method: 'GET',
      path: '/api/v1/content/overview',
      summary: 'Count documents per type: total, published, draft and deleted',
      permissions: ['content:read'],
      target: 'environment',
      repeatableQuery: ['type'],
      request: { query: overviewQuerySchema },
      response: { status: 200, envelope: 'single', schema: overviewSchema },
      handler: ({ query }, ctx) => service.overview(ctx, query.type === undefined ? {} : { types: query.type }),
    }),
    defineAction<DocumentIdParams, GetQuery>({
      id: PREVIEW_READ_ACTION_ID,
      kind: 'query',
      method: 'GET',
      path: '/api/v1/content/{documentId}',
      summary: 'Get a document: published content by default, the draft with draft=true',
      permissions: ['content:read'],
      target: 'environment',
      repeatableQuery: ['resolve'],
      request: { params: documentIdParamsSchema, query: getDocumentQuerySchema, headers: localeHeaderSchema },
      response: { status: 200, envelope: 'single', schema: documentSchema },
      cli: { alias: 'content get', inputMode: 'flags' },
      handler: ({ params, query }, ctx, { request }) =>
        service.get(ctx, { ...query, documentId: params.documentId, ...headerLocale(request) }),
    }),
    defineAction<DocumentIdParams>({
      id: 'content.variants.list',
      kind: 'query',
      method: 'GET',
      path: '/api/v1/content/{documentId}/variants',
      summary: 'List the locale variants of a document',
      permissions: ['content:read'],
      target: 'environment',
      request: { params: documentIdParamsSchema },
      response: { status: 200, envelope: 'single', schema: variantsSchema },
      handler: ({ params }, ctx) => service.listVariants(ctx, { documentId: params.documentId }),
    }),
  ];
}
