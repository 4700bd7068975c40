import type { ErrorCode } from '../errors/error-codes.js';

/** `{ data }`: the envelope of a single resource. */
export interface SingleEnvelope<T> {
  data: T;
}

/** Pagination block of list responses. */
export interface Pagination {
  total: number;
  limit: number;
  offset: number;
  hasMore: boolean;
}

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

/** The error envelope every failure is answered with. */
export interface ErrorEnvelope {
  error: {
    status: 'error';
    code: ErrorCode;
    message: string;
    statusCode: number;
    details: Record<string, unknown>;
    requestId: string;
    timestamp: string;
  };
}
