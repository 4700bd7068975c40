import { expect } from 'vitest';
import type { RequestOptions, TestServer } from '../support/test-server.js';

/** Whatever sends requests to a server: the in-process test server, or a client of a child process. */
export type Requester = Pick<TestServer, 'request'>;

/** One entry of the feed as the API answers it. */
export interface FeedEntry {
  documentId: string;
  type: string;
  locale: string;
  path: string;
  change: string;
  version: number;
  at: string;
}

/** One page of `GET /changes`, checked to be a 200 with a cursor. */
export async function feedPage(
  t: Requester,
  query: { since?: string; limit?: number; draft?: boolean } = {},
  options: RequestOptions = {},
): Promise<{ data: FeedEntry[]; pagination: { nextCursor: string; hasMore: boolean } }> {
  const params = new URLSearchParams();
  if (query.since !== undefined) params.set('since', query.since);
  if (query.limit !== undefined) params.set('limit', String(query.limit));
  if (query.draft !== undefined) params.set('draft', String(query.draft));
  const search = params.size > 0 ? `?${params}` : '';
  const response = await t.request('GET', `/api/v1/changes${search}`, options);
  expect(response.status, response.text).toBe(200);
  expect(typeof response.body.pagination.nextCursor).toBe('string');
  return response.body;
}

/** Follows the feed from `since` to its end; returns what it read and where it ended. */
export async function followFeed(
  t: Requester,
  since?: string,
  query: { limit?: number; draft?: boolean } = {},
  options: RequestOptions = {},
): Promise<{ entries: FeedEntry[]; cursor: string }> {
  const entries: FeedEntry[] = [];
  let cursor = since;
  for (;;) {
    const page = await feedPage(t, { ...query, ...(cursor === undefined ? {} : { since: cursor }) }, options);
    entries.push(...page.data);
    cursor = page.pagination.nextCursor;
    if (!page.pagination.hasMore) return { entries, cursor };
  }
}

/** `documentId:change:version` of each entry, a compact form to compare. */
export function summary(entries: readonly FeedEntry[]): string[] {
  return entries.map((entry) => `${entry.documentId}:${entry.change}:${entry.version}`);
}
