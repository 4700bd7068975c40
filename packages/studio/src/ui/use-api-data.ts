import { type DependencyList, useCallback, useEffect, useRef, useState } from 'react';
import type { ApiError } from '../api/index.js';
import { toApiError } from '../state/studio-context.js';

/**
 * Something a page reads from the API when it opens and again whenever `deps` change: `data` is
 * null until the first answer and keeps the last one meanwhile; `error` is the last refusal, cleared
 * by the next answer. `reload()` reads it again (after a change) and resolves once the answer is in.
 * Only the newest read counts: an answer for an older target or page arriving late is dropped.
 *
 * @example const keys = useApiData(() => apiKeys.list(), []);
 */
export function useApiData<T>(load: () => Promise<T>, deps: DependencyList) {
  const [data, setData] = useState<T | null>(null);
  const [error, setError] = useState<ApiError | null>(null);
  const newest = useRef(0);

  const reload = useCallback(async () => {
    const read = ++newest.current;
    try {
      const answer = await load();
      if (read !== newest.current) return;
      setData(answer);
      setError(null);
    } catch (caught) {
      if (read !== newest.current) return;
      setError(toApiError(caught));
    }
    // biome-ignore lint/correctness/useExhaustiveDependencies: the caller names what `load` reads, as with useEffect
  }, deps);

  useEffect(() => {
    void reload();
  }, [reload]);

  return { data, error, reload };
}
