/**
 * JSON Schemas of `GET /api/v1/search` (decisions.md §4; docs/api.md "Search"). Unknown parameters
 * are rejected (decisions.md §3), booleans accept only `true` and `false`.
 */

import { OFFSET_QUERY_SCHEMA } from '../../../actions/query-schemas.js';
import { MAX_LOCALE_LENGTH } from '../documents/path-rules.js';
import { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE } from './content-reads.schemas.js';

/** Longest search query, in characters. */
export const MAX_SEARCH_QUERY_LENGTH = 200;

/** Query of `GET /search`: `q` must hold a non-space character (a blank query searches nothing). */
export const searchQuerySchema = {
  type: 'object',
  required: ['q'],
  additionalProperties: false,
  properties: {
    q: { type: 'string', minLength: 1, maxLength: MAX_SEARCH_QUERY_LENGTH, pattern: '\\S' },
    type: { type: 'string', minLength: 1, maxLength: 64 },
    locale: { type: 'string', minLength: 1, maxLength: MAX_LOCALE_LENGTH },
    draft: { type: 'boolean', default: false },
    limit: { type: 'integer', minimum: 1, maximum: MAX_PAGE_SIZE, default: DEFAULT_PAGE_SIZE },
    offset: OFFSET_QUERY_SCHEMA,
  },
} as const;

/** One search hit; `snippet` is plain text with matches between `«` and `»`. */
export const searchHitSchema = {
  type: 'object',
  required: ['documentId', 'type', 'path', 'locale', 'snippet', 'score'],
  properties: {
    documentId: { type: 'string', format: 'uuid' },
    type: { type: 'string' },
    path: { type: 'string' },
    locale: { type: 'string' },
    snippet: { type: 'string' },
    score: { type: 'number' },
  },
} as const;
