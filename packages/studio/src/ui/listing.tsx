import type { ReactNode } from 'react';
import { Empty, Loading } from './notice.js';

/**
 * A list read from the API, in its states: "Loading…" until it comes, `empty` when there is nothing,
 * otherwise `children`. While `failed` (reading it was refused: the page shows that error) neither
 * the loading nor the empty state is shown.
 */
export function Listing<T>({
  items,
  failed = false,
  empty,
  children,
}: {
  /** Null until the list is read. */
  items: readonly T[] | null;
  failed?: boolean;
  empty?: ReactNode;
  children: (items: readonly T[]) => ReactNode;
}) {
  if (items === null) return failed ? null : <Loading />;
  if (items.length === 0) return failed || empty === undefined ? null : <Empty>{empty}</Empty>;
  return <>{children(items)}</>;
}
