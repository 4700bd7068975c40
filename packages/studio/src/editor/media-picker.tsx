import { type FormEvent, useEffect, useId, useRef, useState } from 'react';
import { type MediaAsset, media } from '../api/index.js';
import { fallBackToFile, imageAddress, THUMBNAIL } from '../pages/media/media-api.js';
import { toApiError, useStudio } from '../state/studio-context.js';
import { ErrorNotice } from '../ui/notice.js';

/** Wait after the last keystroke before searching. */
const SEARCH_DEBOUNCE_MS = 250;

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

/** Markdown for an asset: an image for images (alt text from the file name), else a link. */
export function markdownFor(asset: MediaAsset): string {
  const name = asset.filename.replace(/\.[^.]+$/, '').replace(/[[\]\\]/g, '');
  // encodeURIComponent leaves parentheses alone, and a `)` would end the Markdown address early.
  const url = asset.url.replace(/[()\s]/g, (char) =>
    char === '(' ? '%28' : char === ')' ? '%29' : encodeURIComponent(char),
  );
  return asset.mimeType.startsWith('image/')
    ? `![${name}](${url})`
    : `[${asset.filename.replace(/[[\]\\]/g, '')}](${url})`;
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
  const [submitted, setSubmitted] = useState('');
  const [offset, setOffset] = useState(0);
  const [assets, setAssets] = useState<MediaAsset[]>([]);
  const [total, setTotal] = useState(0);
  const [loading, setLoading] = useState(false);
  const [error, setError] = useState<ReturnType<typeof toApiError> | null>(null);

  useEffect(() => {
    if (!open) return;
    let live = true;
    setLoading(true);
    setError(null);
    media
      .list(target, {
        ...(submitted ? { q: submitted } : {}),
        ...(imagesOnly ? { category: 'image' as const } : {}),
        sort: 'uploadedAt',
        order: 'desc',
        limit: PAGE,
        offset,
      })
      .then(
        (page) => {
          if (!live) return;
          setAssets((before) => (offset === 0 ? page.data : [...before, ...page.data]));
          setTotal(page.pagination.total);
        },
        (caught) => live && setError(toApiError(caught)),
      )
      .finally(() => live && setLoading(false));
    return () => {
      live = false;
    };
  }, [open, submitted, offset, imagesOnly, target]);

  // Searches as the person types (debounced), like the reference picker; Enter searches at once.
  useEffect(() => {
    if (!open) return;
    const timer = window.setTimeout(() => {
      setOffset(0);
      setSubmitted(term.trim());
    }, SEARCH_DEBOUNCE_MS);
    return () => window.clearTimeout(timer);
  }, [term, open]);

  const show = () => {
    setOpen(true);
    setOffset(0);
    dialog.current?.showModal();
  };
  const close = () => {
    dialog.current?.close();
    setOpen(false);
  };
  const search = (event: FormEvent) => {
    event.preventDefault();
    setOffset(0);
    setSubmitted(term.trim());
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
                  onInsert(asset);
                  close();
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
          {assets.length < total ? (
            <button type="button" disabled={loading} onClick={() => setOffset(assets.length)}>
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
