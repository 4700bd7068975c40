/**
 * The change feed (decisions.md §9 "Change feed", docs/api.md "Change feed"): what changed in an
 * environment, in the order the changes became visible, paged by an opaque cursor that never skips a
 * change however transactions interleave.
 */
import { type Static, Type } from 'typebox';
import { defineRoute } from './define-route.js';
import { LimitQuery, StringEnum, Timestamp, Uuid, WithDefault } from './shapes.js';

/** Default and largest page of `GET /api/v1/changes`. */
export const CHANGES_PAGE_DEFAULT = 100;
export const CHANGES_PAGE_MAX = 1000;
/** Longest cursor accepted (the server's are far shorter). */
export const CHANGES_CURSOR_MAX_LENGTH = 200;

/** What a reader without draft scope is told: changes to the published state. */
export const PUBLISHED_CHANGE_KINDS = ['published', 'unpublished', 'deleted'] as const;
/** Every kind, as `draft=true` lists them: the published kinds and the draft ones. */
export const CHANGE_KINDS = [...PUBLISHED_CHANGE_KINDS, 'created', 'updated', 'restored'] as const;
export const ChangeKindSchema = StringEnum(CHANGE_KINDS);
export type ChangeKind = Static<typeof ChangeKindSchema>;

/** One entry of the feed: a document as it was after the change. */
export const ChangeSchema = Type.Object({
  documentId: Uuid,
  type: Type.String(),
  locale: Type.String(),
  path: Type.String(),
  change: ChangeKindSchema,
  /** The document's version after the change (its published version for `published`). */
  version: Type.Integer(),
  /** When the change became visible in the feed (just after its transaction committed). */
  at: Timestamp,
});
export type Change = Static<typeof ChangeSchema>;

/** Query of `GET /api/v1/changes`. */
export const ListChangesQuerySchema = Type.Object(
  {
    /** `pagination.nextCursor` of the last page read; omitted: from the oldest change kept. */
    since: Type.Optional(Type.String({ minLength: 1, maxLength: CHANGES_CURSOR_MAX_LENGTH })),
    limit: WithDefault(LimitQuery(CHANGES_PAGE_DEFAULT, CHANGES_PAGE_MAX), CHANGES_PAGE_DEFAULT),
    /** True: draft changes too (`created`, `updated`, `restored`); needs `content:read:draft`. */
    draft: WithDefault(Type.Boolean(), false),
  },
  { additionalProperties: false },
);
export type ListChangesQuery = Static<typeof ListChangesQuerySchema>;

export const changesListRoute = defineRoute({
  id: 'changes.list',
  kind: 'query',
  method: 'GET',
  path: '/api/v1/changes',
  summary: 'List what changed in the environment, in the order changes became visible, after a cursor',
  target: 'environment',
  request: { query: ListChangesQuerySchema },
  response: { status: 200, envelope: 'feed', schema: ChangeSchema },
  errors: ['INVALID_QUERY_PARAM', 'CHANGES_CURSOR_EXPIRED'],
});
