/**
 * Query-string schemas every list route shares, so their bounds cannot drift apart
 * (interface.md "Pagination and sorting", "Limits"; decisions.md §3).
 */

/**
 * Largest `offset` any list accepts: the largest 32-bit integer. Larger values would reach SQL as
 * numbers PostgreSQL cannot take (an error, not an empty page); no table holds that many rows.
 */
export const MAX_QUERY_OFFSET = 2_147_483_647;

/** `offset`: results to skip, 0 to {@link MAX_QUERY_OFFSET}, default 0. */
export const OFFSET_QUERY_SCHEMA = { type: 'integer', minimum: 0, maximum: MAX_QUERY_OFFSET, default: 0 } as const;

/** `limit`: page size, 1 to `max`, default `defaultSize`. */
export function limitQuerySchema(defaultSize: number, max: number) {
  return { type: 'integer', minimum: 1, maximum: max, default: defaultSize } as const;
}

/** `order`: `asc` or `desc`, default `desc` (interface.md "Pagination and sorting"). */
export const ORDER_QUERY_SCHEMA = { type: 'string', enum: ['asc', 'desc'], default: 'desc' } as const;

/**
 * The query of a route that takes no parameters: any one is unknown, so `INVALID_QUERY_PARAM`
 * (decisions.md §3). `mountActions` gives it to every enveloped action that declares no query.
 */
export const NO_QUERY_SCHEMA = { type: 'object', additionalProperties: false, properties: {} } as const;
