/**
 * The envelopes every response is wrapped in (interface.md "Response envelopes"), as schemas and
 * types from one declaration each.
 */
import { type Static, type TSchema, Type } from 'typebox';
import { ERROR_CODES, type ErrorCode } from '../errors/error-codes.js';
import { StringEnum, Timestamp } from './shapes.js';

/** `{ data }`: the envelope of a single resource. */
export interface SingleEnvelope<T> {
  data: T;
}

/**
 * Pagination block of list responses. `totalIsCapped` is answered by lists that stop counting (search:
 * true when more documents matched than were ranked, so `total` counts only the hits that can be paged
 * through; docs/api.md "Search"); other lists leave it out and their `total` is exact.
 */
export const PaginationSchema = Type.Object({
  total: Type.Integer(),
  limit: Type.Integer(),
  offset: Type.Integer(),
  hasMore: Type.Boolean(),
  totalIsCapped: Type.Optional(Type.Boolean()),
});
export type Pagination = Static<typeof PaginationSchema>;

/** `{ data: [...], pagination }`: the envelope of a paginated list. */
export interface PaginatedEnvelope<T> {
  data: T[];
  pagination: Pagination;
}

/** Pagination block of keyset lists (`cursor` envelope): pass `nextCursor` back as `cursor`. */
export const CursorPaginationSchema = Type.Object({
  limit: Type.Integer(),
  hasMore: Type.Boolean(),
  nextCursor: Type.Union([Type.String(), Type.Null()]),
});
export type CursorPagination = Static<typeof CursorPaginationSchema>;

/** A keyset page as services return it, before the envelope. */
export interface CursorPage<T> {
  items: T[];
  limit: number;
  /** Opaque; null on the last page. */
  nextCursor: string | null;
}

/**
 * Pagination block of a feed (`feed` envelope, the change feed): `nextCursor` is never null, it is
 * where to ask from next time; `hasMore` says whether more is there already.
 */
export const FeedPaginationSchema = Type.Object({
  nextCursor: Type.String(),
  hasMore: Type.Boolean(),
});
export type FeedPagination = Static<typeof FeedPaginationSchema>;

/** A feed page as services return it, before the envelope. */
export interface FeedPage<T> {
  items: T[];
  nextCursor: string;
  hasMore: boolean;
}

/** A page of results as services return it, before the envelope. */
export interface Page<T> {
  items: T[];
  total: number;
  limit: number;
  offset: number;
  /** Set by lists that may stop counting (`pagination.totalIsCapped`); absent elsewhere. */
  totalIsCapped?: boolean;
}

/** The error envelope every failure is answered with; `code` is one of the error catalog's. */
export const ErrorEnvelopeSchema = Type.Object({
  error: Type.Object({
    status: Type.Literal('error'),
    code: StringEnum(ERROR_CODES as readonly ErrorCode[]),
    message: Type.String(),
    statusCode: Type.Integer(),
    details: Type.Unsafe<Record<string, unknown>>({ type: 'object', additionalProperties: true }),
    requestId: Type.String(),
    timestamp: Timestamp,
  }),
});
export type ErrorEnvelope = Static<typeof ErrorEnvelopeSchema>;

/** The full response body schema of a route: its data schema inside its envelope. */
export function envelopeSchema(response: { envelope: string; schema?: TSchema | undefined }): TSchema | undefined {
  const { envelope, schema } = response;
  if (envelope === 'raw' || !schema) return undefined;
  if (envelope === 'single') return Type.Object({ data: schema });
  if (envelope === 'cursor') return Type.Object({ data: Type.Array(schema), pagination: CursorPaginationSchema });
  if (envelope === 'feed') return Type.Object({ data: Type.Array(schema), pagination: FeedPaginationSchema });
  return Type.Object({ data: Type.Array(schema), pagination: PaginationSchema });
}
