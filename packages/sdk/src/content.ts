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
  contentActivityListRoute,
  contentBatchRoute,
  contentCreateRoute,
  contentDeleteRoute,
  contentDigestRoute,
  contentDuplicateRoute,
  contentGetRoute,
  contentListRoute,
  contentOverviewRoute,
  contentPresenceHeartbeatRoute,
  contentPresenceLeaveRoute,
  contentPreviewTokensCreateRoute,
  contentPublishRoute,
  contentReferrersListRoute,
  contentRestoreRoute,
  contentUnpublishRoute,
  contentUpdateRoute,
  contentVariantsListRoute,
  contentVersionsGetRoute,
  contentVersionsListRoute,
  contentVersionsRestoreRoute,
  Document,
  DocumentSummary,
  RouteInput,
  RouteOutput,
} from '@cms/core';
import { documentTag, pathTag, typeTag } from './cache-tags.js';
import { isNextCachedCall, taggedRead } from './next-cached-read.js';
import { iteratePages, type Page } from './pagination.js';
import { callRoute, routeSpec } from './route-call.js';
import type { CallOptions, Transport } from './transport.js';
import type { ClientTypes, DocumentOf, TypeArg } from './typed-content.js';

type NameOf<T> = T extends ContentType ? T['name'] : T;

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
  const { signal, timeoutMs, headers, next, cache, ...rest } = input;
  return [
    rest as unknown as Q,
    {
      ...(signal ? { signal } : {}),
      ...(timeoutMs ? { timeoutMs } : {}),
      ...(headers ? { headers } : {}),
      ...(next ? { next } : {}),
      ...(cache ? { cache } : {}),
    },
  ];
}

/** The call options with `tag` added to `next.tags` (Next.js ignores tags it already has). */
function tagged(options: CallOptions, tag: string): CallOptions {
  const tags = options.next?.tags ?? [];
  return { ...options, next: { ...options.next, tags: tags.includes(tag) ? tags : [...tags, tag] } };
}

/** What a list read is tagged with before and after its answer (next-cached-read.ts). */
function listPlan(query: ListQuery, typeTagOf: (type: string) => string, pathTagOf: (path: string) => string | null) {
  const resolves = (query.resolve?.length ?? 0) > 0;
  const byPath = query.path === undefined ? null : (pathTagOf(query.path) ?? typeTagOf(query.type));
  const filtered = query.path !== undefined || query.slug !== undefined;
  const keyTags = byPath ? [byPath] : query.slug !== undefined ? [] : [typeTagOf(query.type)];
  const emptyTag = filtered ? typeTagOf(query.type) : null;
  return { keyTags, typeTagOf, own: filtered, emptyTag, needsAnswer: filtered || resolves };
}

/** The content area of a client whose config declares `Types`. */
export function contentArea<Types extends ClientTypes>(transport: Transport) {
  const { project = 'default', environment = 'production' } = transport.options;
  const typeTagOf = (type: string) => typeTag(project, environment, type);
  const list = <T extends TypeArg = never, R extends string = never>(
    query: ContentListQuery<T, R>,
    options: CallOptions = {},
  ): Promise<Page<DocumentOf<T, Types, R>>> => {
    const wire = { ...query, type: typeName(query.type as TypeArg) } as ListQuery;
    const parts = { query: wire, envelope: 'paginated' as const };
    if (!isNextCachedCall(options))
      return callRoute(transport, 'content.list', parts, tagged(options, typeTagOf(wire.type)));
    const plan = listPlan(wire, typeTagOf, (path) => pathTag(project, environment, wire.type, path));
    return taggedRead(transport, routeSpec('content.list', parts, options), plan);
  };

  return {
    /** One page of documents of a type: published by default, drafts with `draft: true`. */
    list,
    /**
     * One page of documents without their text (`includeBody: false`: no `body`, no `source`): for a
     * list that shows titles, fields and states, a few KB where the bodies would be the bulk.
     * @example const recent = await cms.content.listSummaries({ type: 'post', draft: true, sort: 'updatedAt', limit: 5 });
     */
    listSummaries<T extends TypeArg = never>(
      query: Omit<ContentListQuery<T, never>, 'includeBody' | 'resolve'>,
      options: CallOptions = {},
    ): Promise<Page<DocumentSummary>> {
      const type = typeName(query.type as TypeArg);
      return callRoute(
        transport,
        'content.list',
        { query: { ...query, type, includeBody: false }, envelope: 'paginated' },
        tagged(options, typeTag(project, environment, type)),
      );
    },
    /** Every document of the query, page after page, fetched as the loop goes. */
    iterate<T extends TypeArg = never, R extends string = never>(
      query: ContentListQuery<T, R>,
      options: CallOptions = {},
    ): AsyncGenerator<DocumentOf<T, Types, R>, void, undefined> {
      return iteratePages((offset) => list<T, R>({ ...query, offset }, options), query.offset ?? 0);
    },
    /** One document: published by default, the draft with `draft: true`. */
    get<T extends TypeArg = never, R extends string = never>(
      documentId: string,
      options: ContentGetOptions<R> = {} as ContentGetOptions<R>,
    ): Promise<DocumentOf<T, Types, R>> {
      const [query, call] = splitOptions(options);
      const parts = { params: { documentId }, query };
      if (!isNextCachedCall(call))
        return callRoute(transport, 'content.get', parts, tagged(call, documentTag(documentId)));
      return taggedRead(transport, routeSpec('content.get', parts, call), {
        keyTags: [documentTag(documentId)],
        typeTagOf,
        own: true,
        emptyTag: null,
        needsAnswer: (query.resolve?.length ?? 0) > 0,
      });
    },
    /** Creates a draft; sends X-CMS-Schema-Hash. */
    create<T extends TypeArg = never>(
      body: CreateBody<T>,
      options: CallOptions = {},
    ): Promise<DocumentOf<T, Types, never>> {
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
    ): Promise<DocumentOf<T, Types, never>> {
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
    /**
     * Creates and updates in one transaction, one result per operation (sync clients); sends
     * X-CMS-Schema-Hash. Each result carries its own status or error envelope.
     */
    batch(
      body: RouteInput<typeof contentBatchRoute>['body'],
      options: CallOptions = {},
    ): Promise<RouteOutput<typeof contentBatchRoute>> {
      return callRoute(transport, 'content.batch', { json: body, schemaHash: true }, options);
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
    /** Every live document's revisions without content (drafts: needs `content:read:draft`), for sync clients. */
    digest(
      query: RouteInput<typeof contentDigestRoute>['query'] = {},
      options: CallOptions = {},
    ): Promise<RouteOutput<typeof contentDigestRoute>> {
      return callRoute(transport, 'content.digest', { query }, options);
    },
    /** Every locale variant of a document's translation group. */
    variants(documentId: string, options: CallOptions = {}): Promise<RouteOutput<typeof contentVariantsListRoute>> {
      return callRoute(transport, 'content.variants.list', { params: { documentId } }, options);
    },
    /** The live documents whose reference fields (draft or published) point at a document, by path. */
    referrers(
      documentId: string,
      query: { limit?: number; offset?: number } = {},
      options: CallOptions = {},
    ): Promise<RouteOutput<typeof contentReferrersListRoute>> {
      return callRoute(
        transport,
        'content.referrers.list',
        { params: { documentId }, query, envelope: 'paginated' },
        options,
      );
    },
    /**
     * The document's activity (its audit entries in this environment, newest first, without client
     * addresses): needs `content:read:draft`; pass `pagination.nextCursor` back as `cursor` for the next page.
     * Routine entries (preview tokens handed out) only with `includeRoutine: true`.
     */
    activity(
      documentId: string,
      query: { limit?: number; cursor?: string; includeRoutine?: boolean } = {},
      options: CallOptions = {},
    ): Promise<RouteOutput<typeof contentActivityListRoute>> {
      return callRoute(
        transport,
        'content.activity.list',
        { params: { documentId }, query, envelope: 'cursor' },
        options,
      );
    },
    /** Marks the document as open by the caller (renew every `heartbeatSeconds`); answers who else has it open. */
    presence(
      documentId: string,
      options: CallOptions = {},
    ): Promise<RouteOutput<typeof contentPresenceHeartbeatRoute>> {
      return callRoute(transport, 'content.presence.heartbeat', { params: { documentId } }, options);
    },
    /** Removes the caller's presence mark (the editor was closed). */
    leave(documentId: string, options: CallOptions = {}): Promise<RouteOutput<typeof contentPresenceLeaveRoute>> {
      return callRoute(transport, 'content.presence.leave', { params: { documentId } }, options);
    },
    /**
     * A short-lived token a host's preview route reads the draft with (`createPreviewClient`); with
     * `release`, it previews that release instead (docs/api.md "Preview tokens").
     */
    previewToken(
      documentId: string,
      body: { previewUrl?: string; release?: string } = {},
      options: CallOptions = {},
    ): Promise<RouteOutput<typeof contentPreviewTokensCreateRoute>> {
      return callRoute(transport, 'content.previewTokens.create', { params: { documentId }, json: body }, options);
    },
  };
}

/** The content area's type. */
export type ContentArea<Types extends ClientTypes = readonly []> = ReturnType<typeof contentArea<Types>>;
