/**
 * The pages of a list: "21–40 of 57" (announced when it changes), Previous page and Next page.
 * Nothing while the list is empty. `unit` names what is counted ("1–1 of 1 file", "1–3 of 3 files").
 */
export function Pager({
  label = 'Pages',
  page,
  pageSize,
  total,
  unit,
  onPage,
}: {
  label?: string;
  /** The page shown, from 1. */
  page: number;
  pageSize: number;
  total: number;
  unit?: { one: string; many: string };
  onPage: (page: number) => void;
}) {
  if (total === 0) return null;
  const first = (page - 1) * pageSize + 1;
  const last = Math.min(total, page * pageSize);
  return (
    <nav className="pager" aria-label={label}>
      <span role="status">
        {first}–{last} of {total}
        {unit ? ` ${total === 1 ? unit.one : unit.many}` : ''}
      </span>
      <button type="button" disabled={page <= 1} onClick={() => onPage(page - 1)}>
        Previous page
      </button>
      <button type="button" disabled={last >= total} onClick={() => onPage(page + 1)}>
        Next page
      </button>
    </nav>
  );
}
