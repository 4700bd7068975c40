import { useInfiniteQuery } from '@tanstack/react-query';
import { type KeyboardEvent, useId, useState } from 'react';
import { content, type Target } from '../api/index.js';
import { toApiError, useStudio } from '../state/studio-context.js';
import { titleOf } from '../ui/labels.js';
import { useDebouncedValue } from '../ui/use-debounced-value.js';

interface Option {
  documentId: string;
  title: string;
  path: string;
  status: string;
}

const PAGE = 10;

/** A document's status in words: draft, published, or published with unpublished changes. */
function statusOf(doc: { publishedVersion: number | null; hasUnpublishedChanges?: boolean }): string {
  if (doc.publishedVersion === null) return 'draft';
  return doc.hasUnpublishedChanges ? 'published, changed since' : 'published';
}

/**
 * One page of options: search hits while a term is typed (the server matches the last word as a
 * prefix, so results come as the person types; a hit carries its title and status), else the latest
 * documents of the type.
 */
async function lookUp(
  target: Target,
  type: string,
  query: string,
  offset: number,
): Promise<{ options: Option[]; total: number }> {
  if (query) {
    const page = await content.search(target, query, { type, limit: PAGE, offset });
    const options = page.data.map((hit) => ({
      documentId: hit.documentId,
      title: hit.title ?? hit.path,
      path: hit.path,
      status: statusOf(hit),
    }));
    return { options, total: page.pagination.total };
  }
  const page = await content.list(target, { type, limit: PAGE, offset, sort: 'updatedAt', order: 'desc' });
  const options = page.data.map((doc) => ({
    documentId: doc.documentId,
    title: titleOf(doc),
    path: doc.path,
    status: statusOf(doc),
  }));
  return { options, total: page.pagination.total };
}

/**
 * A searchable combobox of documents of the target type (ARIA combobox pattern): typing searches
 * the server (debounced), results show title, path and status, "More results" keeps the term.
 */
export function ReferencePicker(props: {
  inputId: string;
  describedBy: string | undefined;
  invalid: boolean;
  targetType: string;
  value: string | null;
  knownLabel: string | undefined;
  onChange(value: string | null): void;
}) {
  const { target } = useStudio();
  const listId = useId();
  const [term, setTerm] = useState('');
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(-1);
  const [chosenLabel, setChosenLabel] = useState<string | null>(null);
  const query = useDebouncedValue(term.trim());
  const results = useInfiniteQuery({
    queryKey: ['reference-picker', target.project, target.environment, props.targetType, query],
    enabled: open,
    initialPageParam: 0,
    queryFn: ({ pageParam: offset }) => lookUp(target, props.targetType, query, offset),
    getNextPageParam: (last, pages) => {
      const loaded = pages.reduce((count, page) => count + page.options.length, 0);
      return loaded < last.total ? loaded : undefined;
    },
  });
  const options = results.data?.pages.flatMap((page) => page.options) ?? [];
  const loading = results.isFetching;

  const choose = (option: Option) => {
    props.onChange(option.documentId);
    setChosenLabel(`${option.title} (${option.path})`);
    setOpen(false);
    setTerm('');
  };

  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key === 'ArrowDown') {
      event.preventDefault();
      setOpen(true);
      setActive((i) => Math.min(options.length - 1, i + 1));
    } else if (event.key === 'ArrowUp') {
      event.preventDefault();
      setActive((i) => Math.max(0, i - 1));
    } else if (event.key === 'Enter' && open && active >= 0 && options[active]) {
      event.preventDefault();
      choose(options[active]);
    } else if (event.key === 'Escape' && open) {
      event.preventDefault();
      event.stopPropagation();
      setOpen(false);
    }
  };

  const current = props.value ? (chosenLabel ?? props.knownLabel ?? `Document ${props.value}`) : null;

  return (
    <div className="picker">
      {current ? (
        <div className="picker-current">
          <span>{current}</span>
          <button type="button" onClick={() => props.onChange(null)}>
            Clear
          </button>
        </div>
      ) : null}
      <input
        id={props.inputId}
        type="text"
        role="combobox"
        aria-expanded={open}
        aria-controls={listId}
        aria-autocomplete="list"
        aria-activedescendant={open && active >= 0 ? `${listId}-${active}` : undefined}
        aria-invalid={props.invalid || undefined}
        aria-describedby={props.describedBy}
        placeholder={`Search ${props.targetType || 'documents'}…`}
        value={term}
        onFocus={() => setOpen(true)}
        onBlur={() => window.setTimeout(() => setOpen(false), 150)}
        onKeyDown={onKeyDown}
        onChange={(e) => {
          setTerm(e.target.value);
          setActive(-1);
          setOpen(true);
        }}
      />
      {open ? (
        <div className="picker-popup">
          <div id={listId} role="listbox" aria-label={`${props.targetType} documents`}>
            {options.map((option, index) => (
              <div
                key={option.documentId}
                tabIndex={-1}
                id={`${listId}-${index}`}
                role="option"
                aria-selected={index === active}
                className={index === active ? 'active' : undefined}
                onMouseDown={(e) => {
                  e.preventDefault();
                  choose(option);
                }}
              >
                <span>{option.title}</span>{' '}
                <small className="muted">
                  {props.targetType} · {option.title === option.path ? '' : `${option.path} · `}
                  {option.status}
                </small>
              </div>
            ))}
          </div>
          {loading ? <p className="muted">Searching…</p> : null}
          {results.isError ? (
            <p className="muted" role="alert">
              Could not look up {props.targetType} documents: {toApiError(results.error).message}
            </p>
          ) : null}
          {!loading && !results.isError && options.length === 0 ? (
            <p className="muted">No {props.targetType} documents found.</p>
          ) : null}
          {!loading && results.hasNextPage ? (
            <button
              type="button"
              onMouseDown={(e) => {
                e.preventDefault();
                void results.fetchNextPage();
              }}
            >
              More results
            </button>
          ) : null}
        </div>
      ) : null}
    </div>
  );
}
