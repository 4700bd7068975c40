import type { ReactNode } from 'react';
import { Listing } from './listing.js';

/**
 * A list read from the API as a table (loading and empty states as in `Listing`), in a box that
 * scrolls sideways when the table is wider than the page. `columns` are the header cells; `actions`
 * adds a last column for the rows' buttons, named for assistive technology only, which stays at the
 * box's right edge while the rest scrolls (so a row's buttons are in view at 768 px). `row` renders
 * one item as its `<tr>` (or a fragment of rows), keyed, with the buttons in its last cell.
 */
export function DataTable<T>({
  items,
  failed,
  empty,
  caption,
  className = 'list admin-table',
  columns,
  actions = false,
  row,
}: {
  items: readonly T[] | null;
  failed?: boolean;
  empty?: ReactNode;
  /** Names the table for assistive technology (a visible heading may name it instead). */
  caption?: ReactNode;
  className?: string;
  columns: readonly ReactNode[];
  actions?: boolean;
  row: (item: T, index: number) => ReactNode;
}) {
  return (
    <Listing items={items} failed={failed} empty={empty}>
      {(list) => (
        <div className="table-scroll">
          <table className={actions ? `${className} sticky-actions` : className}>
            {caption ? <caption className="visually-hidden">{caption}</caption> : null}
            <thead>
              <tr>
                {columns.map((column, index) => (
                  // biome-ignore lint/suspicious/noArrayIndexKey: the header cells of one table, in a fixed order
                  <th key={index} scope="col">
                    {column}
                  </th>
                ))}
                {actions ? (
                  <th scope="col">
                    <span className="visually-hidden">Actions</span>
                  </th>
                ) : null}
              </tr>
            </thead>
            <tbody>{list.map(row)}</tbody>
          </table>
        </div>
      )}
    </Listing>
  );
}
