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

/** Pagination block of list responses. */
export const PaginationSchema = Type.Object({
  total: Type.Integer(),
  limit: Type.Integer(),
  offset: Type.Integer(),
  hasMore: Type.Boolean(),
});
export type Pagination = Static<typeof PaginationSchema>;

/** `{ data: [...], pagination }`: the envelope of a paginated list. */
export interface PaginatedEnvelope<T> {
  data: T[];
  pagination: Pagination;
}

/** A page of results as services return it, before the envelope. */
export interface Page<T> {
  items: T[];
  total: number;
  limit: number;
  offset: number;
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
  return Type.Object({ data: Type.Array(schema), pagination: PaginationSchema });
}
