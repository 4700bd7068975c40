import { useInfiniteQuery } from '@tanstack/react-query';
import { type FormEvent, useId, useRef, useState } from 'react';
import { type MediaAsset, media } from '../api/index.js';
import { fallBackToFile, imageAddress, THUMBNAIL } from '../api/media.js';
import { toApiError, useStudio } from '../state/studio-context.js';
import { ErrorNotice } from '../ui/notice.js';
import { useDebouncedValue } from '../ui/use-debounced-value.js';
import { assetMarkdown, bodyAddress } from './markdown-format.js';

/** A file's kind in words, from its media type: "PNG image", "PDF document", "MP4 video". */
function kindOf(mimeType: string): string {
  const [group, subtype = ''] = mimeType.split('/');
  const name = subtype
    .replace(/^(x-|vnd\.)/, '')
    .replace(/\+.*$/, '')
    .toUpperCase();
  if (group === 'image') return `${name} image`;
  if (group === 'video') return `${name} video`;
  if (group === 'audio') return `${name} audio`;
  return `${name} document`;
}

const PAGE = 20;

/**
 * Markdown for an asset in a body: an image for images (its alt text, else its file name), else a
 * link; at the address `bodyAddress` gives (the server's public address, or the path alone).
 */
export function markdownFor(asset: MediaAsset, publicUrl: string | null | undefined): string {
  return assetMarkdown({ ...asset, url: bodyAddress(asset.url, publicUrl) });
}

/**
 * "Insert media": a dialog over the project's media library (`cms.media.list`, newest first,
 * searchable by file name); choosing an asset hands it to `onInsert` (the body inserts its
 * markdown, a field takes its address). `buttonLabel` and `verb` name the action for a field.
 */
export function MediaPicker({
  onInsert,
  imagesOnly = false,
  buttonLabel = 'Insert media',
  verb = 'Insert',
}: {
  onInsert(asset: MediaAsset): void;
  imagesOnly?: boolean;
  buttonLabel?: string;
  verb?: string;
}) {
  const { target } = useStudio();
  const id = useId();
  const dialog = useRef<HTMLDialogElement>(null);
  const [open, setOpen] = useState(false);
  const [term, setTerm] = useState('');
  // Searches as the person types (debounced), like the reference picker; Enter searches at once.
  const [entered, setEntered] = useState<string | null>(null);
  const debounced = useDebouncedValue(term.trim());
  const submitted = entered === term.trim() ? entered : debounced;
  const files = useInfiniteQuery({
    queryKey: ['media-picker', target.project, target.environment, imagesOnly, submitted],
    enabled: open,
    initialPageParam: 0,
    queryFn: ({ pageParam: offset }) =>
      media.list(target, {
        ...(submitted ? { q: submitted } : {}),
        ...(imagesOnly ? { category: 'image' as const } : {}),
        sort: 'uploadedAt',
        order: 'desc',
        limit: PAGE,
        offset,
      }),
    getNextPageParam: (last, pages) => {
      const loaded = pages.reduce((count, page) => count + page.data.length, 0);
      return loaded < last.pagination.total ? loaded : undefined;
    },
  });
  const assets = files.data?.pages.flatMap((page) => page.data) ?? [];
  const total = files.data?.pages.at(-1)?.pagination.total ?? 0;
  const loading = files.isFetching;
  const error = files.isError ? toApiError(files.error) : null;

  const show = () => {
    setOpen(true);
    dialog.current?.showModal();
  };
  const close = () => {
    dialog.current?.close();
    setOpen(false);
  };
  const search = (event: FormEvent) => {
    event.preventDefault();
    setEntered(term.trim());
  };

  return (
    <>
      <button type="button" onClick={show}>
        {buttonLabel}
      </button>
      <dialog ref={dialog} aria-labelledby={`${id}-title`} onClose={() => setOpen(false)} className="media-dialog">
        <h2 id={`${id}-title`}>Media library</h2>
        <form onSubmit={search}>
          <label htmlFor={`${id}-search`}>Search media by file name</label>
          <input id={`${id}-search`} type="search" value={term} onChange={(event) => setTerm(event.target.value)} />
          <button type="submit">Search</button>
        </form>
        {error ? <ErrorNotice error={error} /> : null}
        <p aria-live="polite">
          {loading
            ? 'Loading…'
            : `${total} ${total === 1 ? 'file' : 'files'}${submitted ? ` matching “${submitted}”` : ''}`}
        </p>
        <ul className="media-grid">
          {assets.map((asset) => (
            <li key={asset.id}>
              <button
                type="button"
                onClick={() => {
                  // Closed first: closing gives focus back to "Insert media"; inserting then moves it
                  // to the body, at the inserted text.
                  close();
                  onInsert(asset);
                }}
              >
                {asset.mimeType.startsWith('image/') ? (
                  <img src={imageAddress(asset, THUMBNAIL)} alt="" loading="lazy" onError={fallBackToFile(asset)} />
                ) : null}
                <span>
                  {verb} {asset.filename}
                </span>
                <small className="muted">
                  {kindOf(asset.mimeType)} · {asset.alt ? `alt text: ${asset.alt}` : 'no alt text yet'}
                </small>
              </button>
            </li>
          ))}
        </ul>
        <div className="actions">
          {files.hasNextPage ? (
            <button type="button" disabled={loading} onClick={() => void files.fetchNextPage()}>
              More files
            </button>
          ) : null}
          <button type="button" onClick={close}>
            Cancel
          </button>
        </div>
      </dialog>
    </>
  );
}
