import { type ReactNode, useEffect, useState } from 'react';
import { navigate, useLocation } from '../routing/navigation.js';

/**
 * The filters of a list page, kept in the address so a list can be bookmarked and Back works.
 * `setQuery` changes some parameters (null or '' removes one) and returns to the first page unless
 * `page` is among the changes.
 */
export function useAddressQuery(path: string) {
  const { query } = useLocation();
  const setQuery = (changes: Record<string, string | null>) => {
    const next = new URLSearchParams(query);
    for (const [key, value] of Object.entries(changes)) {
      if (value === null || value === '') next.delete(key);
      else next.set(key, value);
    }
    if (!('page' in changes)) next.delete('page');
    const text = next.toString();
    navigate(`${path}${text ? `?${text}` : ''}`, { replace: true });
  };
  return { query, setQuery };
}

/**
 * A list's search box: what is typed stays in the box until submitted, then `onSearch` gets the
 * words (null when blank). The box follows `q` when the address changes (Back, a cleared search).
 */
export function SearchForm({
  name,
  label,
  q,
  placeholder,
  onSearch,
  children,
}: {
  /** The form's accessible name. */
  name: string;
  label: string;
  q: string;
  placeholder?: string;
  onSearch: (q: string | null) => void;
  /** More buttons after "Search". */
  children?: ReactNode;
}) {
  const [text, setText] = useState(q);
  useEffect(() => setText(q), [q]);
  return (
    <form
      className="toolbar"
      aria-label={name}
      onSubmit={(event) => {
        event.preventDefault();
        onSearch(text.trim() || null);
      }}
    >
      <label className="grow">
        <span>{label}</span>
        <input type="search" value={text} placeholder={placeholder} onChange={(e) => setText(e.target.value)} />
      </label>
      <button type="submit">Search</button>
      {children}
    </form>
  );
}

/** The "Order" choice of a sorted list. */
export function OrderSelect({ value, onChange }: { value: 'asc' | 'desc'; onChange: (order: string) => void }) {
  return (
    <label>
      <span>Order</span>
      <select value={value} onChange={(e) => onChange(e.target.value)}>
        <option value="desc">Descending</option>
        <option value="asc">Ascending</option>
      </select>
    </label>
  );
}
