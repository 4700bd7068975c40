/** `iterate`: every item of a paginated route, page by page, fetched lazily as the loop asks. */
import type { Pagination } from '@cms/core';

/** One page of a paginated route. */
export interface Page<T> {
  data: T[];
  pagination: Pagination;
}

/**
 * Yields the items of every page from `offset` on: the next page starts at `offset + limit`
 * while `hasMore` is true (interface.md "Pagination").
 */
export async function* iteratePages<T>(
  fetchPage: (offset: number) => Promise<Page<T>>,
  startOffset = 0,
): AsyncGenerator<T, void, undefined> {
  let offset = startOffset;
  for (;;) {
    const page = await fetchPage(offset);
    yield* page.data;
    if (!page.pagination.hasMore || page.data.length === 0) return;
    offset = page.pagination.offset + page.pagination.limit;
  }
}
