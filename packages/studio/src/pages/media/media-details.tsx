import { useEffect, useId, useRef, useState } from 'react';
import type { ApiError } from '../../api/index.js';
import { toApiError, useStudio } from '../../state/studio-context.js';
import { ConfirmDialog } from '../../ui/confirm-dialog.js';
import { CopyButton } from '../../ui/copy-button.js';
import { ErrorNotice } from '../../ui/notice.js';
import { formatTime } from '../dashboard-page.js';
import { type MediaAsset, mediaLibrary } from './media-api.js';
import { CATEGORY_LABELS, CategoryIcon, formatBytes } from './media-format.js';

/** One file: what it is, where it lives (with a copy button), who uploaded it, and delete. */
export function MediaDetails({
  asset,
  uploaderLabel,
  onFilterUploader,
  onClose,
  onDeleted,
}: {
  asset: MediaAsset;
  uploaderLabel: string;
  onFilterUploader(): void;
  onClose(): void;
  onDeleted(asset: MediaAsset): void;
}) {
  const { target } = useStudio();
  const id = useId();
  const heading = useRef<HTMLHeadingElement>(null);
  const [confirming, setConfirming] = useState(false);
  const [deleting, setDeleting] = useState(false);
  const [error, setError] = useState<ApiError | null>(null);

  // Focus follows the choice, so keyboard and screen reader users land on what they opened.
  useEffect(() => heading.current?.focus(), []);

  const remove = async () => {
    setDeleting(true);
    setError(null);
    try {
      await mediaLibrary.remove(target, asset.id);
      setConfirming(false);
      onDeleted(asset);
    } catch (caught) {
      setConfirming(false);
      setError(toApiError(caught));
    } finally {
      setDeleting(false);
    }
  };

  return (
    <aside className="media-details" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`} ref={heading} tabIndex={-1}>
        {asset.filename}
      </h2>
      <div className="media-preview">
        {asset.category === 'image' ? (
          <img src={asset.url} alt={`Preview of ${asset.filename}`} />
        ) : (
          <CategoryIcon asset={asset} />
        )}
      </div>
      <dl className="facts">
        <dt>Type</dt>
        <dd className="mono">{asset.mimeType}</dd>
        <dt>Category</dt>
        <dd>{CATEGORY_LABELS[asset.category]}</dd>
        <dt>Size</dt>
        <dd>
          {formatBytes(asset.sizeBytes)}
          {asset.sizeBytes >= 1024 ? ` (${asset.sizeBytes.toLocaleString()} bytes)` : ''}
        </dd>
        <dt>Uploaded</dt>
        <dd>
          <time dateTime={asset.uploadedAt}>{formatTime(asset.uploadedAt)}</time>
        </dd>
        <dt>Uploaded by</dt>
        <dd>
          {uploaderLabel}{' '}
          <button type="button" className="link" onClick={onFilterUploader}>
            Show their files
          </button>
        </dd>
      </dl>
      <div className="field">
        <label htmlFor={`${id}-url`}>Address</label>
        <input
          id={`${id}-url`}
          className="mono"
          readOnly
          value={asset.url}
          onFocus={(event) => event.target.select()}
        />
        <div className="row-actions">
          <CopyButton text={asset.url} label="Copy address" confirm="beside" />
        </div>
      </div>
      <p>
        <a href={asset.url} target="_blank" rel="noopener noreferrer">
          Open the file in a new tab
        </a>
      </p>
      <ErrorNotice error={error} title="Not deleted:" />
      <div className="actions">
        <button type="button" className="danger" onClick={() => setConfirming(true)}>
          Delete {asset.filename}
        </button>
        <button type="button" onClick={onClose}>
          Close details
        </button>
      </div>
      {confirming ? (
        <ConfirmDialog
          title={`Delete ${asset.filename}?`}
          confirmLabel="Delete file"
          busy={deleting}
          onConfirm={remove}
          onCancel={() => setConfirming(false)}
        >
          <p>
            The file is removed and its address stops working at once: pages and documents that use it will show a
            broken link or image. This cannot be undone.
          </p>
        </ConfirmDialog>
      ) : null}
    </aside>
  );
}
