import { type KeyboardEvent, useEffect, useId, useRef, useState } from 'react';
import { content } from '../api/index.js';
import { titleOf } from '../pages/document-title.js';
import { useStudio } from '../state/studio-context.js';

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
  const [options, setOptions] = useState<Option[]>([]);
  const [total, setTotal] = useState(0);
  const [offset, setOffset] = useState(0);
  const [active, setActive] = useState(-1);
  const [loading, setLoading] = useState(false);
  const [chosenLabel, setChosenLabel] = useState<string | null>(null);
  const timer = useRef<number | undefined>(undefined);
  /** The latest lookup: an answer to an older one (a term since changed) is dropped. */
  const latest = useRef(0);

  useEffect(() => {
    if (!open) return;
    window.clearTimeout(timer.current);
    timer.current = window.setTimeout(async () => {
      const lookup = ++latest.current;
      const current = () => lookup === latest.current;
      setLoading(true);
      try {
        if (term.trim()) {
          // The server matches the last word as a prefix, so results come as the person types.
          const page = await content.search(target, term.trim(), { type: props.targetType, limit: PAGE, offset });
          // A hit carries its title and status: no document is read for it.
          const found = page.data.map((hit) => ({
            documentId: hit.documentId,
            title: hit.title ?? hit.path,
            path: hit.path,
            status: statusOf(hit),
          }));
          if (!current()) return;
          setOptions((before) => (offset === 0 ? found : [...before, ...found]));
          setTotal(page.pagination.total);
        } else {
          const page = await content.list(target, {
            type: props.targetType,
            limit: PAGE,
            offset,
            sort: 'updatedAt',
            order: 'desc',
          });
          const found = page.data.map((doc) => ({
            documentId: doc.documentId,
            title: titleOf(doc),
            path: doc.path,
            status: statusOf(doc),
          }));
          if (!current()) return;
          setOptions((before) => (offset === 0 ? found : [...before, ...found]));
          setTotal(page.pagination.total);
        }
      } catch {
        if (!current()) return;
        setOptions([]);
        setTotal(0);
      } finally {
        if (current()) setLoading(false);
      }
    }, 250);
    return () => window.clearTimeout(timer.current);
  }, [open, term, offset, target, props.targetType]);

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
          setOffset(0);
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
          {!loading && options.length === 0 ? <p className="muted">No {props.targetType} documents found.</p> : null}
          {!loading && options.length < total ? (
            <button
              type="button"
              onMouseDown={(e) => {
                e.preventDefault();
                setOffset(options.length);
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
