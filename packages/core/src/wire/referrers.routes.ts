/**
 * Referrers (decisions.md §8 "Studio for writers"): the documents whose reference fields point at a
 * document, so deleting it can warn who would be left with a broken reference.
 */
import { type Static, Type } from 'typebox';
import { DocumentIdParamsSchema } from './content.routes.js';
import { defineRoute } from './define-route.js';
import { LimitQuery, Nullable, OffsetQuery, Uuid, WithDefault } from './shapes.js';

/** Page size default and maximum of the referrers list. */
export const DEFAULT_REFERRERS_PAGE = 20;
export const MAX_REFERRERS_PAGE = 100;

/** Query of `GET /content/{documentId}/referrers`. */
export const ReferrersQuerySchema = Type.Object(
  {
    limit: WithDefault(LimitQuery(DEFAULT_REFERRERS_PAGE, MAX_REFERRERS_PAGE), DEFAULT_REFERRERS_PAGE),
    offset: WithDefault(OffsetQuery, 0),
  },
  { additionalProperties: false },
);

/**
 * One document that points at the asked one: which of its reference fields do (dot paths, as
 * `resolve` names them), and whether its draft, its published content or both do.
 */
export const ReferrerSchema = Type.Object({
  documentId: Uuid,
  type: Type.String(),
  path: Type.String(),
  locale: Type.String(),
  /** The referrer's `title` (draft frontmatter), when it has a string one. */
  title: Nullable(Type.String()),
  fields: Type.Array(Type.String()),
  inDraft: Type.Boolean(),
  inPublished: Type.Boolean(),
});
export type Referrer = Static<typeof ReferrerSchema>;

export const contentReferrersListRoute = defineRoute({
  id: 'content.referrers.list',
  kind: 'query',
  method: 'GET',
  path: '/api/v1/content/{documentId}/referrers',
  summary: 'List the live documents whose reference fields (draft or published) point at a document',
  target: 'environment',
  request: { params: DocumentIdParamsSchema, query: ReferrersQuerySchema },
  response: { status: 200, envelope: 'paginated', schema: ReferrerSchema },
});
