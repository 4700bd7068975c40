/**
 * The rows of a type's list through the query cache: the list itself (filters, sort, page, page size
 * all server-side), or, while searching, the search's hits shown as documents (title, status, type)
 * with the status and locale filters applied by the search, so totals are exact. Search runs as the person types: the server matches the last word as a
 * prefix (docs/api.md "Search as you type").
 */
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { type ContentSummary, content, type ListQuery, type Target } from '../../api/index.js';

export const STATUS_FILTERS = {
  all: {},
  published: { published: true },
  unpublished: { published: false },
  changed: { hasUnpublishedChanges: true },
  deleted: { isDeleted: true },
} as const;
export type StatusFilter = keyof typeof STATUS_FILTERS;

export interface RowsQuery {
  type: string;
  status: StatusFilter;
  locale: string;
  sort: NonNullable<ListQuery['sort']>;
  order: 'asc' | 'desc';
  page: number;
  pageSize: number;
  q: string;
}

export interface Rows {
  data: ContentSummary[];
  total: number;
  /** Search snippets by document id (plain text, matches between « and »). */
  snippets: Record<string, string>;
}

async function loadRows(target: Target, query: RowsQuery): Promise<Rows> {
  const offset = (query.page - 1) * query.pageSize;
  if (!query.q) {
    const answer = await content.list(target, {
      type: query.type,
      ...STATUS_FILTERS[query.status],
      locale: query.locale || undefined,
      sort: query.sort,
      order: query.order,
      limit: query.pageSize,
      offset,
    });
    return { data: answer.data, total: answer.pagination.total, snippets: {} };
  }
  // The search filters by status and locale as the list does (not by deleted: it never finds those).
  const { published, hasUnpublishedChanges } = STATUS_FILTERS[query.status] as {
    published?: boolean;
    hasUnpublishedChanges?: boolean;
  };
  const hits = await content.search(target, query.q, {
    type: query.type,
    ...(query.locale ? { locale: query.locale } : {}),
    ...(published === undefined ? {} : { published }),
    ...(hasUnpublishedChanges === undefined ? {} : { hasUnpublishedChanges }),
    limit: query.pageSize,
    offset,
  });
  // The page's documents are read together (one page at most, in parallel) for the type's list columns.
  const docs = await Promise.all(hits.data.map((hit) => content.get(target, hit.documentId)));
  return {
    data: docs,
    total: hits.pagination.total,
    snippets: Object.fromEntries(hits.data.map((hit) => [hit.documentId, hit.snippet])),
  };
}

export const rowsKey = (target: Target, type: string) => ['content-list', target.project, target.environment, type];

/** The rows for `query`; the previous rows stay on screen while the next ones load (typing, paging). */
export function useContentRows(target: Target, query: RowsQuery) {
  return useQuery({
    queryKey: [...rowsKey(target, query.type), query],
    queryFn: () => loadRows(target, query),
    placeholderData: keepPreviousData,
  });
}
