import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import {
  fallBackToFile,
  imageAddress,
  MEDIA_CATEGORIES,
  MEDIA_PAGE_SIZE,
  type MediaAsset,
  type MediaCategory,
  type MediaListQuery,
  mediaLibrary,
  THUMBNAIL,
} from '../../api/media.js';
import { useProjectSettings } from '../../state/shared-queries.js';
import { toApiError, useStudio } from '../../state/studio-context.js';
import { OrderSelect, SearchForm, useAddressQuery } from '../../ui/list-filters.js';
import { Empty, ErrorNotice, Loading, Notice } from '../../ui/notice.js';
import { Pager } from '../../ui/pager.js';
import { formatTime } from '../dashboard-page.js';
import { MediaDetails } from './media-details.js';
import { CATEGORY_LABELS, CategoryIcon, formatBytes } from './media-format.js';
import { type ImageLimit, MediaUploader } from './media-uploader.js';

type Sort = NonNullable<MediaListQuery['sort']>;
const SORTS: Record<Sort, { label: string; order: 'asc' | 'desc' }> = {
  uploadedAt: { label: 'Upload time', order: 'desc' },
  filename: { label: 'File name', order: 'asc' },
  sizeBytes: { label: 'Size', order: 'desc' },
};

type Listing = { state: 'loading' } | { state: 'ready'; data: MediaAsset[]; total: number };

/** Who uploaded: the signed-in person, and everyone else the caller may list. */
interface Uploader {
  id: string;
  label: string;
}

/**
 * `/media`: the environment's media library. Upload (picker or drop, several at once, with
 * progress and the project's image limit said first), every filter of `GET /api/v1/media` kept in
 * the address, pages, and the details of one file with its address to copy, and delete.
 */
export function MediaLibraryPage() {
  const { target, bootstrap } = useStudio();
  const { query, setQuery } = useAddressQuery('/media');
  const q = query.get('q') ?? '';
  const category = (query.get('category') ?? '') as MediaCategory | '';
  const uploadedBy = query.get('uploadedBy') ?? '';
  const uploadedFrom = query.get('uploadedFrom') ?? '';
  const uploadedTo = query.get('uploadedTo') ?? '';
  const sort = (query.get('sort') ?? 'uploadedAt') as Sort;
  const order = (query.get('order') ?? SORTS[sort]?.order ?? 'desc') as 'asc' | 'desc';
  const page = Math.max(1, Number(query.get('page') ?? '1') || 1);

  // Another environment has other files: changing target remounts the page (the Studio's context
  // reloads), which clears the selection.
  const [selected, setSelected] = useState<MediaAsset | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const me = bootstrap.me;
  // The project's image limit, said before anything is uploaded (the settings page's entry).
  const settings = useProjectSettings(target.project);
  const limit: ImageLimit = settings.data
    ? { state: 'known', bytes: settings.data.mediaImageMaxBytes }
    : settings.error
      ? { state: 'unknown', error: toApiError(settings.error) }
      : { state: 'loading' };
  // Without the list of people (not allowed, or refused), the filter still offers "Me" and any
  // uploader chosen from a file's details.
  const people = useQuery({
    queryKey: ['media-uploaders', me.principalId],
    queryFn: () => mediaLibrary.users(),
    enabled: me.capabilities['users.manage'],
  });
  const uploaders: Uploader[] = [
    { id: me.principalId, label: `Me (${me.email ?? me.label ?? me.principalId})` },
    ...(people.data?.data ?? [])
      .filter((user) => user.id !== me.principalId)
      .map((user) => ({ id: user.id, label: user.email })),
  ];

  // The page of files through the query cache; an upload or a delete invalidates it (`reload`).
  const filters = { q, category, uploadedBy, uploadedFrom, uploadedTo, sort, order, page };
  const files = useQuery({
    queryKey: ['media', target.project, target.environment, filters],
    queryFn: () =>
      mediaLibrary.list(target, {
        ...(q ? { q } : {}),
        ...(category ? { category } : {}),
        ...(uploadedBy ? { uploadedBy } : {}),
        ...(uploadedFrom ? { uploadedFrom } : {}),
        ...(uploadedTo ? { uploadedTo } : {}),
        sort,
        order,
        limit: MEDIA_PAGE_SIZE,
        offset: (page - 1) * MEDIA_PAGE_SIZE,
      }),
  });
  const client = useQueryClient();
  const reload = () => void client.invalidateQueries({ queryKey: ['media', target.project, target.environment] });
  const listing: Listing = files.data
    ? { state: 'ready', data: files.data.data, total: files.data.pagination.total }
    : files.error
      ? { state: 'ready', data: [], total: 0 }
      : { state: 'loading' };
  const error = files.error ? toApiError(files.error) : null;

  const filtered = Boolean(q || category || uploadedBy || uploadedFrom || uploadedTo);
  const uploaderOptions =
    uploadedBy && !uploaders.some((u) => u.id === uploadedBy)
      ? [...uploaders, { id: uploadedBy, label: uploadedBy }]
      : uploaders;
  const uploaderLabel = (id: string) => uploaderOptions.find((u) => u.id === id)?.label ?? id;

  return (
    <>
      <div className="page-header">
        <h1>Media library</h1>
        <span className="muted">
          {target.project} · {target.environment}
        </span>
      </div>
      <MediaUploader target={target} limit={limit} onUploaded={() => reload()} onShow={(asset) => setSelected(asset)} />
      <h2>Files</h2>
      <SearchForm name="Search media" label="Search file names" q={q} onSearch={(words) => setQuery({ q: words })} />
      <div className="toolbar media-filters">
        <label>
          <span>Category</span>
          <select value={category} onChange={(e) => setQuery({ category: e.target.value })}>
            <option value="">All categories</option>
            {MEDIA_CATEGORIES.map((name) => (
              <option key={name} value={name}>
                {CATEGORY_LABELS[name]}
              </option>
            ))}
          </select>
        </label>
        <label>
          <span>Uploaded by</span>
          <select value={uploadedBy} onChange={(e) => setQuery({ uploadedBy: e.target.value })}>
            <option value="">Anyone</option>
            {uploaderOptions.map((uploader) => (
              <option key={uploader.id} value={uploader.id}>
                {uploader.label}
              </option>
            ))}
          </select>
        </label>
        <label>
          <span>Uploaded from</span>
          <input
            type="date"
            value={uploadedFrom}
            max={uploadedTo || undefined}
            onChange={(e) => setQuery({ uploadedFrom: e.target.value })}
          />
        </label>
        <label>
          <span>Uploaded to</span>
          <input
            type="date"
            value={uploadedTo}
            min={uploadedFrom || undefined}
            onChange={(e) => setQuery({ uploadedTo: e.target.value })}
          />
        </label>
        <label>
          <span>Sort by</span>
          <select
            value={sort}
            onChange={(e) => setQuery({ sort: e.target.value, order: SORTS[e.target.value as Sort].order })}
          >
            {Object.entries(SORTS).map(([value, { label }]) => (
              <option key={value} value={value}>
                {label}
              </option>
            ))}
          </select>
        </label>
        <OrderSelect value={order} onChange={(to) => setQuery({ order: to })} />
        {filtered ? (
          <button
            type="button"
            onClick={() =>
              setQuery({ q: null, category: null, uploadedBy: null, uploadedFrom: null, uploadedTo: null })
            }
          >
            Clear filters
          </button>
        ) : null}
      </div>
      <p className="muted">Dates are whole days in UTC; “Uploaded to” includes its day.</p>
      <ErrorNotice error={error} />
      {notice ? <Notice kind="success">{notice}</Notice> : null}
      <div className={`media-layout${selected ? ' media-layout-details' : ''}`}>
        <div>
          {listing.state === 'loading' ? <Loading /> : null}
          {listing.state === 'ready' && listing.data.length === 0 && !error ? (
            <Empty>{filtered ? 'No file matches these filters.' : 'No files here yet: upload the first above.'}</Empty>
          ) : null}
          {listing.state === 'ready' && listing.data.length > 0 ? (
            <ul className="media-library-grid" aria-label="Files">
              {listing.data.map((asset) => (
                <li key={asset.id}>
                  <button
                    type="button"
                    className="media-tile"
                    aria-pressed={selected?.id === asset.id}
                    onClick={() => {
                      setNotice(null);
                      setSelected(asset);
                    }}
                  >
                    <span className="media-thumb">
                      {asset.category === 'image' ? (
                        <img
                          src={imageAddress(asset, THUMBNAIL)}
                          alt=""
                          loading="lazy"
                          onError={fallBackToFile(asset)}
                        />
                      ) : (
                        <CategoryIcon asset={asset} />
                      )}
                    </span>
                    <span className="media-name">{asset.filename}</span>
                    <span className="muted media-meta">
                      {CATEGORY_LABELS[asset.category]} · {formatBytes(asset.sizeBytes)} ·{' '}
                      <time dateTime={asset.uploadedAt}>{formatTime(asset.uploadedAt)}</time>
                    </span>
                  </button>
                </li>
              ))}
            </ul>
          ) : null}
          <Pager
            page={page}
            pageSize={MEDIA_PAGE_SIZE}
            total={listing.state === 'ready' ? listing.total : 0}
            unit={{ one: 'file', many: 'files' }}
            onPage={(to) => setQuery({ page: String(to) })}
          />
        </div>
        {selected ? (
          <MediaDetails
            key={selected.id}
            asset={selected}
            uploaderLabel={uploaderLabel(selected.uploadedBy)}
            onFilterUploader={() => setQuery({ uploadedBy: selected.uploadedBy })}
            onClose={() => setSelected(null)}
            onUpdated={(asset) => {
              setSelected(asset);
              reload();
            }}
            onDeleted={(asset) => {
              setSelected(null);
              setNotice(`Deleted ${asset.filename}. Its address no longer works.`);
              reload();
            }}
          />
        ) : null}
      </div>
    </>
  );
}
