import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { type DependencyList, useId } from 'react';
import { toApiError } from '../api/index.js';

/**
 * Something a page reads from the API when it opens and again whenever `deps` change, through the
 * query cache (TanStack Query): `data` is null until the first answer and keeps the last one
 * meanwhile; `error` is the last refusal, cleared by the next answer. `reload()` reads it again
 * (after a change) and resolves once the answer is in. Only the newest read counts: the query
 * library drops an answer for an older target or page.
 *
 * The cache entry belongs to the component that asks (its `useId()` is part of the key, with `deps`),
 * so two pages never share an entry by accident; pages that want shared, named entries call
 * `useQuery` with a key of their own.
 *
 * `readAgainAfter(data)` polls: it answers how long after each answer to read again, or false to
 * stop (a list with work still pending).
 *
 * @example const keys = useApiData(() => apiKeys.list(), []);
 */
export function useApiData<T>(
  load: () => Promise<T>,
  deps: DependencyList,
  { readAgainAfter }: { readAgainAfter?: (data: T) => number | false } = {},
) {
  const owner = useId();
  const query = useQuery({
    queryKey: ['api-data', owner, ...deps],
    queryFn: load,
    placeholderData: keepPreviousData,
    gcTime: 0,
    refetchInterval: readAgainAfter
      ? (current) => (current.state.data === undefined ? false : readAgainAfter(current.state.data))
      : false,
  });
  return {
    data: (query.data ?? null) as T | null,
    error: query.error ? toApiError(query.error) : null,
    reload: async () => {
      await query.refetch();
    },
  };
}
