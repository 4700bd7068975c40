import { DOCUMENT_TITLE_KEYS } from '@cms/core/document-title';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useMemo, useRef, useState } from 'react';
import { type CmsError, type ContentSummary, content, DEFAULT_LOCALE, type ListQuery } from '../api/index.js';
import type { FieldMetadata } from '../editor/core-schema.js';
import { Slot } from '../extensions/slot.js';
import { Link } from '../routing/navigation.js';
import { toApiError, useStudio } from '../state/studio-context.js';
import { labelOf, titleOf } from '../ui/labels.js';
import { OrderSelect, useAddressQuery } from '../ui/list-filters.js';
import { Empty, ErrorNotice, Loading } from '../ui/notice.js';
import { Pager } from '../ui/pager.js';
import { BulkActions } from './content-list/bulk-actions.js';
import { rowsKey, type StatusFilter, useContentRows } from './content-list/use-content-rows.js';
import { formatTime } from './dashboard-page.js';

const PAGE_SIZES = [20, 50, 100] as const;
const SCALAR_KINDS = new Set(['string', 'number', 'boolean', 'date', 'enum']);
const TITLE_KEYS = new Set<string>(DOCUMENT_TITLE_KEYS);
/** How long typing pauses before the search runs. */
const SEARCH_DELAY_MS = 250;

/** `/content/:type`: one type's documents with filters, sort, search and pages, all server-side. */
export function ContentListPage({ type }: { type: string }) {
  const { target, types, bootstrap } = useStudio();
  const schemaType = types.find((t) => t.name === type);
  const { query, setQuery } = useAddressQuery(`/content/${encodeURIComponent(type)}`);
  const status = (query.get('status') ?? 'all') as StatusFilter;
  const locale = query.get('locale') ?? '';
  const sort = (query.get('sort') ?? 'updatedAt') as NonNullable<ListQuery['sort']>;
  const order = (query.get('order') ?? 'desc') as 'asc' | 'desc';
  const page = Math.max(1, Number(query.get('page') ?? '1') || 1);
  const q = query.get('q') ?? '';
  const pageSize = PAGE_SIZES.find((size) => String(size) === query.get('size')) ?? PAGE_SIZES[0];
  const [restoreError, setRestoreError] = useState<CmsError | null>(null);
  const [selected, setSelected] = useState<Map<string, ContentSummary>>(new Map());
  const can = bootstrap.me.capabilities;
  const client = useQueryClient();
  const rows = useContentRows(target, { type, status, locale, sort, order, page, pageSize, q });
  const error = rows.error ? toApiError(rows.error) : restoreError;
  const shown = rows.data?.data ?? [];

  const columns = useMemo(
    () =>
      Object.entries(schemaType?.fields ?? {})
        .filter(([name, field]) => SCALAR_KINDS.has((field as FieldMetadata).kind) && !TITLE_KEYS.has(name))
        .slice(0, 3)
        .map(([name]) => name),
    [schemaType],
  );

  const restore = async (doc: ContentSummary) => {
    setRestoreError(null);
    try {
      await content.restoreDeleted(target, doc.documentId);
      await client.invalidateQueries({ queryKey: rowsKey(target, type) });
    } catch (caught) {
      setRestoreError(toApiError(caught));
    }
  };
  const toggle = (doc: ContentSummary, on: boolean) =>
    setSelected((before) => {
      const next = new Map(before);
      if (on) next.set(doc.documentId, doc);
      else next.delete(doc.documentId);
      return next;
    });
  const selectable = shown.filter((doc) => !doc.isDeleted);
  const allSelected = selectable.length > 0 && selectable.every((doc) => selected.has(doc.documentId));
  /** A sortable column's header: a button that sorts by it, then reverses the order. */
  const sortHeader = (key: NonNullable<ListQuery['sort']>, label: string) => (
    <th scope="col" aria-sort={!q && sort === key ? (order === 'asc' ? 'ascending' : 'descending') : undefined}>
      {q ? (
        label
      ) : (
        <button
          type="button"
          className="sort-button"
          onClick={() => setQuery({ sort: key, order: sort === key && order === 'desc' ? 'asc' : 'desc' })}
        >
          {label}
          <span aria-hidden="true">{sort === key ? (order === 'asc' ? ' ▲' : ' ▼') : ''}</span>
        </button>
      )}
    </th>
  );

  if (!schemaType) {
    return (
      <>
        <h1>{labelOf(type)}</h1>
        <Empty>This environment has no content type “{type}”.</Empty>
      </>
    );
  }

  return (
    <>
      <div className="page-header">
        <h1>{labelOf(type)}</h1>
        <div className="actions">
          <Slot id="content.list.toolbar" props={{ type }} />
          <Link to={`/content/${encodeURIComponent(type)}/new`} className="button primary">
            New {labelOf(type).toLowerCase()}
          </Link>
        </div>
      </div>
      <TypeAheadSearch q={q} onSearch={(words) => setQuery({ q: words })} />
      <div className="toolbar">
        <label>
          <span>Status</span>
          <select
            value={status}
            onChange={(e) => setQuery({ status: e.target.value === 'all' ? null : e.target.value })}
          >
            <option value="all">All</option>
            <option value="published">Published</option>
            <option value="unpublished">Never published</option>
            <option value="changed">Unpublished changes</option>
            <option value="deleted">Including deleted</option>
          </select>
        </label>
        {schemaType.localized ? (
          <label>
            <span>Locale</span>
            <input value={locale} placeholder="any" size={8} onChange={(e) => setQuery({ locale: e.target.value })} />
          </label>
        ) : null}
        {q ? null : (
          <>
            <label>
              <span>Sort by</span>
              <select value={sort} onChange={(e) => setQuery({ sort: e.target.value })}>
                <option value="updatedAt">Last updated</option>
                <option value="createdAt">Created</option>
                <option value="path">Path</option>
              </select>
            </label>
            <OrderSelect value={order} onChange={(to) => setQuery({ order: to })} />
          </>
        )}
        <label>
          <span>Per page</span>
          <select
            value={pageSize}
            onChange={(e) => setQuery({ size: e.target.value === '20' ? null : e.target.value })}
          >
            {PAGE_SIZES.map((size) => (
              <option key={size} value={size}>
                {size}
              </option>
            ))}
          </select>
        </label>
      </div>
      {q ? (
        <p className="muted">
          Best matches first{status !== 'all' ? ', with the status filter applied to each page of matches' : ''}.
        </p>
      ) : null}
      {can['content.publish'] || can['content.write'] || can['content.delete'] ? (
        <BulkActions
          target={target}
          type={type}
          selected={[...selected.values()]}
          onDone={() => setSelected(new Map())}
        />
      ) : null}
      <ErrorNotice error={error} />
      {rows.isPending ? <Loading /> : null}
      {rows.data && shown.length === 0 && !error ? (
        <Empty>{q ? `Nothing matches “${q}”.` : 'No documents here yet.'}</Empty>
      ) : null}
      {shown.length > 0 ? (
        <table className="list" aria-busy={rows.isFetching}>
          <caption className="visually-hidden">{labelOf(type)} documents</caption>
          <thead>
            <tr>
              <th scope="col">Title</th>
              {sortHeader('path', 'Path')}
              {q ? <th scope="col">Type</th> : null}
              {schemaType.localized ? <th scope="col">Locale</th> : null}
              {columns.map((name) => (
                <th key={name} scope="col">
                  {labelOf(name)}
                </th>
              ))}
              <th scope="col">Publication</th>
              {sortHeader('updatedAt', 'Updated')}
              <th scope="col">
                <label className="select-cell">
                  <input
                    type="checkbox"
                    checked={allSelected}
                    disabled={selectable.length === 0}
                    onChange={(e) => {
                      for (const doc of selectable) toggle(doc, e.target.checked);
                    }}
                  />
                  <span>Select all</span>
                </label>
              </th>
            </tr>
          </thead>
          <tbody>
            {shown.map((doc) => (
              <tr key={doc.documentId}>
                <td>
                  {doc.isDeleted ? (
                    <span>{titleOf(doc)}</span>
                  ) : (
                    <Link to={`/content/${encodeURIComponent(doc.type)}/${doc.documentId}`}>{titleOf(doc)}</Link>
                  )}
                  {q && typeof rows.data?.snippets[doc.documentId] === 'string' ? (
                    <Snippet text={rows.data.snippets[doc.documentId] as string} />
                  ) : null}
                </td>
                <td className="mono">{doc.path}</td>
                {q ? <td>{labelOf(doc.type)}</td> : null}
                {schemaType.localized ? <td>{doc.locale === DEFAULT_LOCALE ? '—' : doc.locale}</td> : null}
                {columns.map((name) => (
                  <td key={name}>{cell(doc.frontmatter[name])}</td>
                ))}
                <td>
                  <StatusBadge doc={doc} />
                  {doc.isDeleted && can['content.write'] ? (
                    <button type="button" className="row-button" onClick={() => restore(doc)}>
                      Restore {doc.path}
                    </button>
                  ) : null}
                </td>
                <td>
                  <time dateTime={doc.updatedAt}>{formatTime(doc.updatedAt)}</time>
                </td>
                <td>
                  {doc.isDeleted ? null : (
                    <input
                      type="checkbox"
                      aria-label={`Select ${titleOf(doc)}`}
                      checked={selected.has(doc.documentId)}
                      onChange={(e) => toggle(doc, e.target.checked)}
                    />
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : null}
      <Pager
        page={page}
        pageSize={pageSize}
        total={rows.data?.total ?? 0}
        onPage={(to) => setQuery({ page: String(to) })}
      />
    </>
  );
}

/**
 * The list's search, run as the person types (a moment after typing pauses): the server matches
 * the last word as a prefix, so "gra" finds "grace". Enter searches at once; the box follows `q`
 * when the address changes (Back, a cleared search).
 */
function TypeAheadSearch({ q, onSearch }: { q: string; onSearch(q: string | null): void }) {
  const [text, setText] = useState(q);
  const [typed, setTyped] = useState(false);
  const search = useRef(onSearch);
  search.current = onSearch;
  useEffect(() => {
    if (!typed) setText(q);
  }, [q, typed]);
  useEffect(() => {
    if (!typed) return;
    const timer = window.setTimeout(() => {
      setTyped(false);
      if (text.trim() !== q) search.current(text.trim() || null);
    }, SEARCH_DELAY_MS);
    return () => window.clearTimeout(timer);
  }, [text, typed, q]);
  return (
    <form
      className="toolbar"
      aria-label="Search"
      onSubmit={(event) => {
        event.preventDefault();
        setTyped(false);
        onSearch(text.trim() || null);
      }}
    >
      <label className="grow">
        <span>Search</span>
        <input
          type="search"
          value={text}
          placeholder="Words in titles and text, as you type"
          onChange={(e) => {
            setText(e.target.value);
            setTyped(true);
          }}
        />
      </label>
      <button type="submit">Search</button>
      {q ? (
        <button
          type="button"
          onClick={() => {
            setText('');
            setTyped(false);
            onSearch(null);
          }}
        >
          Clear search
        </button>
      ) : null}
    </form>
  );
}

/** Search snippets are plain text with matches between « and »: escaped, then highlighted. */
function Snippet({ text }: { text: string }) {
  const parts = text.split(/«([^»]*)»/);
  return (
    <p className="snippet">
      {parts.map((part, i) =>
        // biome-ignore lint/suspicious/noArrayIndexKey: parts of one fixed string
        i % 2 === 1 ? <mark key={i}>{part}</mark> : <span key={i}>{part}</span>,
      )}
    </p>
  );
}

export function StatusBadge({
  doc,
}: {
  doc: Pick<ContentSummary, 'isDeleted' | 'publishedVersion' | 'hasUnpublishedChanges'>;
}) {
  if (doc.isDeleted) return <span className="badge badge-deleted">Deleted</span>;
  if (doc.publishedVersion === null) return <span className="badge badge-draft">Draft</span>;
  if (doc.hasUnpublishedChanges) return <span className="badge badge-changed">Published, changed</span>;
  return <span className="badge badge-published">Published</span>;
}

function cell(value: unknown): string {
  if (value === null || value === undefined) return '—';
  if (typeof value === 'boolean') return value ? 'Yes' : 'No';
  return String(value);
}
