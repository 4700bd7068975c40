import { type ReactNode, type RefObject, useEffect, useId, useRef, useState } from 'react';
import { Listing } from './listing.js';

/**
 * True while the box is narrower than what it holds (it scrolls sideways). Such a box is then a tab
 * stop, so a keyboard can scroll it (axe's scrollable-region-focusable); one that fits is not.
 */
function useScrollsSideways(box: RefObject<HTMLDivElement | null>): boolean {
  const [scrolls, setScrolls] = useState(false);
  useEffect(() => {
    const element = box.current;
    if (!element) return;
    const measure = () => setScrolls(element.scrollWidth > element.clientWidth + 1);
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(element);
    if (element.firstElementChild) observer.observe(element.firstElementChild);
    return () => observer.disconnect();
  }, [box]);
  return scrolls;
}

/** The box a table scrolls sideways in; reachable by keyboard, and named by the table's caption, while it scrolls. */
function ScrollBox({ captionId, children }: { captionId: string | null; children: ReactNode }) {
  const box = useRef<HTMLDivElement>(null);
  const scrolls = useScrollsSideways(box);
  const name = captionId ? { 'aria-labelledby': captionId } : { 'aria-label': 'Table' };
  return (
    <div ref={box} className="table-scroll" {...(scrolls ? { tabIndex: 0, role: 'region', ...name } : {})}>
      {children}
    </div>
  );
}

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
  const captionId = useId();
  return (
    <Listing items={items} failed={failed} empty={empty}>
      {(list) => (
        <ScrollBox captionId={caption ? captionId : null}>
          <table className={actions ? `${className} sticky-actions` : className}>
            {caption ? (
              <caption id={captionId} className="visually-hidden">
                {caption}
              </caption>
            ) : null}
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
        </ScrollBox>
      )}
    </Listing>
  );
}
