import { invalidQueryParam, type MediaListQuerySchema, type Validated } from '@cms/core';
import type { MediaListArgs } from '../../../storage/repositories/media.repository.js';

/** The media list query as validated by its declaration (core `MediaListQuerySchema`), defaults applied. */
export type MediaListQuery = Validated<typeof MediaListQuerySchema>;

const DAY_MS = 24 * 60 * 60 * 1000;
const DATE_ONLY = /^(\d{4})-(\d{2})-(\d{2})$/;

/**
 * Turns the list query into repository arguments (interface.md "Media list query"): a blank `q` is
 * ignored; dates are UTC days, `uploadedTo` inclusive through the end of its day; an impossible date
 * (2026-02-30) or a range ending before it starts is INVALID_QUERY_PARAM; `order` defaults to
 * `asc` for `filename` and `desc` otherwise.
 */
export function toMediaListArgs(query: MediaListQuery): MediaListArgs {
  const from = query.uploadedFrom === undefined ? null : parseUtcDay('uploadedFrom', query.uploadedFrom);
  const to = query.uploadedTo === undefined ? null : parseUtcDay('uploadedTo', query.uploadedTo);
  if (from && to && from.getTime() > to.getTime()) {
    throw invalidQueryParam(
      { uploadedTo: `must not be before uploadedFrom (${query.uploadedFrom})` },
      `The date range is inverted: uploadedTo ${query.uploadedTo} is before uploadedFrom ${query.uploadedFrom}.`,
    );
  }
  const sort = query.sort ?? 'uploadedAt';
  const q = query.q?.trim() ?? '';
  return {
    q: q === '' ? null : q,
    category: query.category ?? null,
    uploadedBy: query.uploadedBy ?? null,
    uploadedFrom: from,
    uploadedBefore: to ? new Date(to.getTime() + DAY_MS) : null,
    sort,
    order: query.order ?? (sort === 'filename' ? 'asc' : 'desc'),
    limit: query.limit,
    offset: query.offset,
  };
}

/** Midnight UTC of a `YYYY-MM-DD` calendar date, or INVALID_QUERY_PARAM naming the parameter. */
function parseUtcDay(name: string, value: string): Date {
  const match = DATE_ONLY.exec(value);
  const date = new Date(`${value}T00:00:00.000Z`);
  // Date parsing rolls 2026-02-30 over to March: only a date that reads back unchanged is real.
  // Year 0000 does not exist in PostgreSQL's calendar.
  const valid = match !== null && match[1] !== '0000' && !Number.isNaN(date.getTime());
  if (!valid || date.toISOString().slice(0, 10) !== value) {
    throw invalidQueryParam(
      { [name]: 'must be a calendar date as YYYY-MM-DD' },
      `${name} "${value}" is not a valid date.`,
    );
  }
  return date;
}
