/**
 * `cms.content`: documents. Shapes and inputs come from core's content route contracts; pass a
 * `defineType` result (as `type`, or as the type argument) to type `frontmatter`, with the
 * references named in `resolve` typed as resolved objects.
 * @example
 * const page = await cms.content.list({ type: post, resolve: ['author'], limit: 20 });
 * page.data[0]?.frontmatter.author?.frontmatter.name;
 */
import type {
  ContentType,
  contentCreateRoute,
  contentDeleteRoute,
  contentDuplicateRoute,
  contentGetRoute,
  contentListRoute,
  contentOverviewRoute,
  contentPreviewTokensCreateRoute,
  contentPublishRoute,
  contentRestoreRoute,
  contentUnpublishRoute,
  contentUpdateRoute,
  contentVariantsListRoute,
  contentVersionsGetRoute,
  contentVersionsListRoute,
  contentVersionsRestoreRoute,
  Document,
  InferFrontmatter,
  RouteInput,
  RouteOutput,
} from '@cms/core';
import { iteratePages, type Page } from './pagination.js';
import { callRoute } from './route-call.js';
import type { CallOptions, Transport } from './transport.js';

/** A content type given by its `defineType` result or by name. */
export type TypeArg = ContentType | string;

type NameOf<T> = T extends ContentType ? T['name'] : T;

/** The `defineType` a type argument stands for, looked up by name among the client's types. */
export type TypeOf<T, Types extends readonly ContentType[]> = T extends ContentType
  ? T
  : Extract<Types[number], { name: T }>;

/** A document whose frontmatter is typed by its content type, `Resolved` references resolved. */
export type TypedDocument<T = never, Resolved extends string = never> = [T] extends [never]
  ? Document
  : T extends ContentType
    ? Omit<Document, 'frontmatter'> & { frontmatter: InferFrontmatter<T, Resolved> }
    : Document;

type ListQuery = RouteInput<typeof contentListRoute>['query'];
type GetQuery = RouteInput<typeof contentGetRoute>['query'];

/** Query of `content.list`: core's list query, `type` also as a `defineType` result. */
export type ContentListQuery<T extends TypeArg, R extends string> = Omit<ListQuery, 'type' | 'resolve'> & {
  type: T | NameOf<T>;
  resolve?: readonly R[];
};

/** Options of `content.get`. */
export type ContentGetOptions<R extends string> = Omit<GetQuery, 'resolve'> & { resolve?: readonly R[] } & CallOptions;

type CreateBody<T> = Omit<RouteInput<typeof contentCreateRoute>['body'], 'type' | 'frontmatter'> & {
  type: T | NameOf<T>;
  frontmatter: Record<string, unknown>;
};
type UpdateBody = RouteInput<typeof contentUpdateRoute>['body'];
type DuplicateBody = NonNullable<RouteInput<typeof contentDuplicateRoute>['body']>;

function typeName(type: TypeArg): string {
  return typeof type === 'string' ? type : type.name;
}

function splitOptions<Q extends object>(input: Q & CallOptions): [Q, CallOptions] {
  const { signal, timeoutMs, headers, ...rest } = input;
  return [
    rest as unknown as Q,
    { ...(signal ? { signal } : {}), ...(timeoutMs ? { timeoutMs } : {}), ...(headers ? { headers } : {}) },
  ];
}

/** The content area of a client whose config declares `Types`. */
export function contentArea<Types extends readonly ContentType[]>(transport: Transport) {
  const list = <T extends TypeArg = never, R extends string = never>(
    query: ContentListQuery<T, R>,
    options: CallOptions = {},
  ): Promise<Page<TypedDocument<TypeOf<T, Types>, R>>> =>
    callRoute(
      transport,
      'content.list',
      { query: { ...query, type: typeName(query.type as TypeArg) }, envelope: 'paginated' },
      options,
    );

  return {
    /** One page of documents of a type: published by default, drafts with `draft: true`. */
    list,
    /** Every document of the query, page after page, fetched as the loop goes. */
    iterate<T extends TypeArg = never, R extends string = never>(
      query: ContentListQuery<T, R>,
      options: CallOptions = {},
    ): AsyncGenerator<TypedDocument<TypeOf<T, Types>, R>, void, undefined> {
      return iteratePages((offset) => list<T, R>({ ...query, offset }, options), query.offset ?? 0);
    },
    /** One document: published by default, the draft with `draft: true`. */
    get<T extends TypeArg = never, R extends string = never>(
      documentId: string,
      options: ContentGetOptions<R> = {} as ContentGetOptions<R>,
    ): Promise<TypedDocument<TypeOf<T, Types>, R>> {
      const [query, call] = splitOptions(options);
      return callRoute(transport, 'content.get', { params: { documentId }, query }, call);
    },
    /** Creates a draft; sends X-CMS-Schema-Hash. */
    create<T extends TypeArg = never>(
      body: CreateBody<T>,
      options: CallOptions = {},
    ): Promise<TypedDocument<TypeOf<T, Types>>> {
      return callRoute(
        transport,
        'content.create',
        { json: { ...body, type: typeName(body.type as TypeArg) }, schemaHash: true },
        options,
      );
    },
    /** Replaces a draft's frontmatter and body; `draftRevision` is the one last fetched (else CONFLICT). */
    update<T extends TypeArg = never>(
      documentId: string,
      body: UpdateBody,
      options: CallOptions = {},
    ): Promise<TypedDocument<TypeOf<T, Types>>> {
      return callRoute(transport, 'content.update', { params: { documentId }, json: body, schemaHash: true }, options);
    },
    publish(
      documentId: string,
      body: { changeSummary?: string } = {},
      options: CallOptions = {},
    ): Promise<RouteOutput<typeof contentPublishRoute>> {
      return callRoute(transport, 'content.publish', { params: { documentId }, json: body }, options);
    },
    unpublish(documentId: string, options: CallOptions = {}): Promise<RouteOutput<typeof contentUnpublishRoute>> {
      return callRoute(transport, 'content.unpublish', { params: { documentId } }, options);
    },
    /** Published versions, newest first. */
    versions(
      documentId: string,
      query: { limit?: number; offset?: number } = {},
      options: CallOptions = {},
    ): Promise<RouteOutput<typeof contentVersionsListRoute>> {
      return callRoute(
        transport,
        'content.versions.list',
        { params: { documentId }, query, envelope: 'paginated' },
        options,
      );
    },
    getVersion(
      documentId: string,
      version: number,
      options: CallOptions = {},
    ): Promise<RouteOutput<typeof contentVersionsGetRoute>> {
      return callRoute(transport, 'content.versions.get', { params: { documentId, version } }, options);
    },
    /** Copies a version into the draft. */
    restoreVersion(
      documentId: string,
      version: number,
      options: CallOptions = {},
    ): Promise<RouteOutput<typeof contentVersionsRestoreRoute>> {
      return callRoute(transport, 'content.versions.restore', { params: { documentId, version } }, options);
    },
    /** Soft-deletes a document. */
    delete(documentId: string, options: CallOptions = {}): Promise<RouteOutput<typeof contentDeleteRoute>> {
      return callRoute(transport, 'content.delete', { params: { documentId } }, options);
    },
    /** Brings a soft-deleted document back. */
    restore(documentId: string, options: CallOptions = {}): Promise<RouteOutput<typeof contentRestoreRoute>> {
      return callRoute(transport, 'content.restore', { params: { documentId } }, options);
    },
    /** Copies a document to a new path (default `<path>-copy`). */
    duplicate(documentId: string, body: DuplicateBody = {}, options: CallOptions = {}): Promise<Document> {
      return callRoute(transport, 'content.duplicate', { params: { documentId }, json: body }, options);
    },
    /** Counts per type: total, published, draft and deleted. */
    overview(
      query: RouteInput<typeof contentOverviewRoute>['query'] = {},
      options: CallOptions = {},
    ): Promise<RouteOutput<typeof contentOverviewRoute>> {
      return callRoute(transport, 'content.overview', { query }, options);
    },
    /** Every locale variant of a document's translation group. */
    variants(documentId: string, options: CallOptions = {}): Promise<RouteOutput<typeof contentVariantsListRoute>> {
      return callRoute(transport, 'content.variants.list', { params: { documentId } }, options);
    },
    /** A short-lived token a host's preview route reads the draft with (`createPreviewClient`). */
    previewToken(
      documentId: string,
      body: { previewUrl?: string } = {},
      options: CallOptions = {},
    ): Promise<RouteOutput<typeof contentPreviewTokensCreateRoute>> {
      return callRoute(transport, 'content.previewTokens.create', { params: { documentId }, json: body }, options);
    },
  };
}

/** The content area's type. */
export type ContentArea<Types extends readonly ContentType[] = readonly []> = ReturnType<typeof contentArea<Types>>;
