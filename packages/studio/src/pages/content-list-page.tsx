import { useEffect, useMemo, useState } from 'react';
import {
  type ApiError,
  type ContentDocument,
  content,
  DEFAULT_LOCALE,
  type ListQuery,
  type SearchHit,
} from '../api/index.js';
import type { FieldMetadata } from '../editor/core-schema.js';
import { Slot } from '../extensions/slot.js';
import { Link } from '../router.js';
import { toApiError, useStudio } from '../state/studio-context.js';
import { OrderSelect, SearchForm, useAddressQuery } from '../ui/list-filters.js';
import { Empty, ErrorNotice, Loading } from '../ui/notice.js';
import { Pager } from '../ui/pager.js';
import { labelOf } from '../ui/shell.js';
import { formatTime } from './dashboard-page.js';
import { titleOf } from './document-title.js';

const PAGE_SIZE = 20;
const STATUS_FILTERS = {
  all: {},
  published: { published: true },
  unpublished: { published: false },
  changed: { hasUnpublishedChanges: true },
  deleted: { isDeleted: true },
} as const;
type StatusFilter = keyof typeof STATUS_FILTERS;
const SCALAR_KINDS = new Set(['string', 'number', 'boolean', 'date', 'enum']);
const TITLE_KEYS = new Set(['title', 'name', 'label', 'heading']);

type Rows =
  | { kind: 'loading' }
  | { kind: 'documents'; data: ContentDocument[]; total: number }
  | { kind: 'hits'; data: SearchHit[]; total: number };

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
  const [rows, setRows] = useState<Rows>({ kind: 'loading' });
  const [error, setError] = useState<ApiError | null>(null);
  const [reload, setReload] = useState(0);
  const can = bootstrap.me.capabilities;

  const columns = useMemo(
    () =>
      Object.entries(schemaType?.fields ?? {})
        .filter(([name, field]) => SCALAR_KINDS.has((field as FieldMetadata).kind) && !TITLE_KEYS.has(name))
        .slice(0, 3)
        .map(([name]) => name),
    [schemaType],
  );

  // biome-ignore lint/correctness/useExhaustiveDependencies: reload re-runs the query after a restore
  useEffect(() => {
    let live = true;
    setRows({ kind: 'loading' });
    setError(null);
    const offset = (page - 1) * PAGE_SIZE;
    const request = q
      ? content.search(target, q, { type, limit: PAGE_SIZE, offset }).then((answer) => ({
          kind: 'hits' as const,
          data: answer.data,
          total: answer.pagination.total,
        }))
      : content
          .list(target, {
            type,
            ...STATUS_FILTERS[status],
            locale: locale || undefined,
            sort,
            order,
            limit: PAGE_SIZE,
            offset,
          })
          .then((answer) => ({ kind: 'documents' as const, data: answer.data, total: answer.pagination.total }));
    request.then(
      (next) => live && setRows(next),
      (caught) => {
        if (!live) return;
        setError(toApiError(caught));
        setRows({ kind: 'documents', data: [], total: 0 });
      },
    );
    return () => {
      live = false;
    };
  }, [target, type, status, locale, sort, order, page, q, reload]);

  const restore = async (doc: ContentDocument) => {
    setError(null);
    try {
      await content.restoreDeleted(target, doc.documentId);
      setReload((n) => n + 1);
    } catch (caught) {
      setError(toApiError(caught));
    }
  };

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
      <SearchForm
        name="Search"
        label="Search"
        q={q}
        placeholder="Words in titles and text"
        onSearch={(words) => setQuery({ q: words })}
      >
        {q ? (
          <button type="button" onClick={() => setQuery({ q: null })}>
            Clear search
          </button>
        ) : null}
      </SearchForm>
      {!q ? (
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
          <label>
            <span>Sort by</span>
            <select value={sort} onChange={(e) => setQuery({ sort: e.target.value })}>
              <option value="updatedAt">Last updated</option>
              <option value="createdAt">Created</option>
              <option value="path">Path</option>
            </select>
          </label>
          <OrderSelect value={order} onChange={(to) => setQuery({ order: to })} />
        </div>
      ) : null}
      <ErrorNotice error={error} />
      {rows.kind === 'loading' ? <Loading /> : null}
      {rows.kind !== 'loading' && rows.data.length === 0 && !error ? (
        <Empty>{q ? `Nothing matches “${q}”.` : 'No documents here yet.'}</Empty>
      ) : null}
      {rows.kind === 'documents' && rows.data.length > 0 ? (
        <table className="list">
          <caption className="visually-hidden">{labelOf(type)} documents</caption>
          <thead>
            <tr>
              <th scope="col">Title</th>
              <th scope="col">Path</th>
              {schemaType.localized ? <th scope="col">Locale</th> : null}
              {columns.map((name) => (
                <th key={name} scope="col">
                  {labelOf(name)}
                </th>
              ))}
              <th scope="col">Publication</th>
              <th scope="col">Updated</th>
            </tr>
          </thead>
          <tbody>
            {rows.data.map((doc) => (
              <tr key={doc.documentId}>
                <td>
                  {doc.isDeleted ? (
                    <span>{titleOf(doc)}</span>
                  ) : (
                    <Link to={`/content/${encodeURIComponent(type)}/${doc.documentId}`}>{titleOf(doc)}</Link>
                  )}
                </td>
                <td className="mono">{doc.path}</td>
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
              </tr>
            ))}
          </tbody>
        </table>
      ) : null}
      {rows.kind === 'hits' && rows.data.length > 0 ? (
        <ul className="hits">
          {rows.data.map((hit) => (
            <li key={hit.documentId}>
              <Link to={`/content/${encodeURIComponent(hit.type)}/${hit.documentId}`}>{hit.path}</Link>
              {hit.locale && hit.locale !== DEFAULT_LOCALE ? <span className="muted"> · {hit.locale}</span> : null}
              {typeof hit.snippet === 'string' ? <Snippet text={hit.snippet} /> : null}
            </li>
          ))}
        </ul>
      ) : null}
      <Pager
        page={page}
        pageSize={PAGE_SIZE}
        total={rows.kind === 'loading' ? 0 : rows.total}
        onPage={(to) => setQuery({ page: String(to) })}
      />
    </>
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
  doc: Pick<ContentDocument, 'isDeleted' | 'publishedVersion' | 'hasUnpublishedChanges'>;
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
