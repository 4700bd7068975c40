import { type FormEvent, useEffect, useId, useRef, useState } from 'react';
import type { CmsError } from '../../api/index.js';
import { imageAddress, type MediaAsset, mediaLibrary, PREVIEW } from '../../api/media.js';
import { toApiError, useStudio } from '../../state/studio-context.js';
import { ConfirmDialog } from '../../ui/confirm-dialog.js';
import { CopyButton } from '../../ui/copy-button.js';
import { ErrorNotice } from '../../ui/notice.js';
import { formatTime } from '../dashboard-page.js';
import { type FocalPoint, FocalPointPicker } from './focal-point-picker.js';
import { CATEGORY_LABELS, CategoryIcon, formatBytes } from './media-format.js';

/**
 * One file: what it is, where it lives (with a copy button), who uploaded it, and delete; for images
 * the alt text and the focal point (click or drag on the image), saved together.
 */
export function MediaDetails({
  asset,
  uploaderLabel,
  onFilterUploader,
  onClose,
  onDeleted,
  onUpdated,
}: {
  asset: MediaAsset;
  uploaderLabel: string;
  onFilterUploader(): void;
  onClose(): void;
  onDeleted(asset: MediaAsset): void;
  onUpdated(asset: MediaAsset): void;
}) {
  const { target } = useStudio();
  const id = useId();
  const heading = useRef<HTMLHeadingElement>(null);
  const [confirming, setConfirming] = useState(false);
  const [deleting, setDeleting] = useState(false);
  const [error, setError] = useState<CmsError | null>(null);
  const [alt, setAlt] = useState(asset.alt);
  const [focalPoint, setFocalPoint] = useState<FocalPoint | null>(asset.focalPoint);
  const [saving, setSaving] = useState(false);
  const [saved, setSaved] = useState(false);
  const [saveError, setSaveError] = useState<CmsError | null>(null);
  const focalChanged = JSON.stringify(focalPoint) !== JSON.stringify(asset.focalPoint);
  const dirty = alt !== asset.alt || focalChanged;

  const save = async (event: FormEvent) => {
    event.preventDefault();
    if (!dirty) return;
    setSaving(true);
    setSaved(false);
    setSaveError(null);
    try {
      const updated = await mediaLibrary.update(target, asset.id, {
        ...(alt !== asset.alt ? { alt } : {}),
        ...(focalChanged ? { focalPoint } : {}),
      });
      setSaved(true);
      onUpdated(updated);
    } catch (caught) {
      setSaveError(toApiError(caught));
    } finally {
      setSaving(false);
    }
  };

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
      {asset.category === 'image' ? (
        <form className="media-image-form" onSubmit={save}>
          <div className="media-preview">
            <FocalPointPicker
              src={imageAddress(asset, PREVIEW)}
              alt={`Preview of ${asset.filename}`}
              value={focalPoint}
              onChange={(point) => {
                setSaved(false);
                setFocalPoint(point);
              }}
            />
          </div>
          <p className="muted">
            Click or drag on the image to set where crops centre
            {focalPoint ? '' : ' (now the middle)'}.{' '}
            {focalPoint ? (
              <button type="button" className="link" onClick={() => setFocalPoint(null)}>
                Back to the middle
              </button>
            ) : null}
          </p>
          <div className="field">
            <label htmlFor={`${id}-alt`}>Alt text</label>
            <textarea
              id={`${id}-alt`}
              rows={2}
              maxLength={1000}
              value={alt}
              onChange={(event) => {
                setSaved(false);
                setAlt(event.target.value);
              }}
            />
          </div>
          <ErrorNotice error={saveError} title="Not saved:" />
          <div className="row-actions">
            <button type="submit" disabled={!dirty || saving}>
              {saving ? 'Saving…' : 'Save alt text and focal point'}
            </button>
            {saved ? (
              <span role="status" className="muted">
                Saved.
              </span>
            ) : null}
          </div>
        </form>
      ) : (
        <div className="media-preview">
          <CategoryIcon asset={asset} />
        </div>
      )}
      <dl className="facts">
        <dt>Type</dt>
        <dd className="mono">{asset.mimeType}</dd>
        <dt>Category</dt>
        <dd>{CATEGORY_LABELS[asset.category]}</dd>
        {asset.width && asset.height ? (
          <>
            <dt>Dimensions</dt>
            <dd>
              {asset.width} × {asset.height} pixels
            </dd>
          </>
        ) : null}
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
