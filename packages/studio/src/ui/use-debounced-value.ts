import { useEffect, useState } from 'react';

/** Search boxes ask the server this long after typing pauses. */
export const SEARCH_DEBOUNCE_MS = 250;

/**
 * `value` once it has stayed the same for `ms`: a search box's query key, so the server is asked
 * when typing pauses rather than at every key. A change back within `ms` never reaches the result.
 */
export function useDebouncedValue<T>(value: T, ms = SEARCH_DEBOUNCE_MS): T {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const timer = window.setTimeout(() => setSettled(value), ms);
    return () => window.clearTimeout(timer);
  }, [value, ms]);
  return settled;
}
