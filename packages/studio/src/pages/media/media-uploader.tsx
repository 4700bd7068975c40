import { useEffect, useId, useRef, useState } from 'react';
import type { CmsError, Target } from '../../api/index.js';
import { type MediaAsset, mediaLibrary } from '../../api/media.js';
import { toApiError } from '../../state/studio-context.js';
import { ErrorNotice } from '../../ui/notice.js';
import { formatBytes } from './media-format.js';

/** Files sent at the same time; the rest wait their turn. */
const PARALLEL = 3;

type Status = 'queued' | 'uploading' | 'processing' | 'done' | 'failed' | 'cancelled' | 'refused';

interface UploadItem {
  key: number;
  file: File;
  status: Status;
  loaded: number;
  total: number;
  error: CmsError | null;
  /** Why the Studio did not send the file (over the project's image limit). */
  refusal: string | null;
  asset: MediaAsset | null;
  controller: AbortController;
}

/** The image limit as loaded from `GET /api/v1/settings`. */
export type ImageLimit =
  | { state: 'loading' }
  | { state: 'known'; bytes: number | null }
  | { state: 'unknown'; error: CmsError };

/** Whether the browser's idea of the file makes it an image (the server decides by its bytes). */
function looksLikeImage(file: File): boolean {
  return file.type.startsWith('image/');
}

/** What the limit means, said before anything is uploaded. */
export function LimitExplanation({ limit }: { limit: ImageLimit }) {
  if (limit.state === 'loading') return <p className="muted">Reading this project’s upload limit…</p>;
  if (limit.state === 'unknown')
    return <ErrorNotice error={limit.error} title="This project’s image limit could not be read:" />;
  if (limit.bytes === null)
    return (
      <p className="hint">This project sets no image size limit; the server’s upload limit applies to every file.</p>
    );
  return (
    <p className="hint">
      Images may be at most <strong>{formatBytes(limit.bytes)}</strong> each in this project (the server checks the
      file’s real type, whatever its name says). Other files only have the server’s upload limit.
    </p>
  );
}

/**
 * Upload by the file picker or by dropping files anywhere on the page, several at once, each with its
 * progress, a Cancel button while it is sent, and the server's error when it is refused.
 */
export function MediaUploader({
  target,
  limit,
  onUploaded,
  onShow,
}: {
  target: Target;
  limit: ImageLimit;
  onUploaded(asset: MediaAsset): void;
  onShow(asset: MediaAsset): void;
}) {
  const inputId = useId();
  const [items, setItems] = useState<UploadItem[]>([]);
  const [dragging, setDragging] = useState(false);
  const queue = useRef<UploadItem[]>([]);
  const controllers = useRef<AbortController[]>([]);
  const running = useRef(0);
  const nextKey = useRef(1);
  const latest = useRef({ target, onUploaded });
  latest.current = { target, onUploaded };

  const update = (key: number, patch: Partial<UploadItem>) =>
    setItems((list) => list.map((item) => (item.key === key ? { ...item, ...patch } : item)));

  const pump = () => {
    while (running.current < PARALLEL && queue.current.length > 0) {
      const item = queue.current.shift() as UploadItem;
      if (item.controller.signal.aborted) continue;
      running.current += 1;
      void send(item);
    }
  };

  /** Sends one file (a write: the library's list is invalidated by `onUploaded`), then the next waiting one. */
  const send = async (item: UploadItem) => {
    update(item.key, { status: 'uploading' });
    const { signal } = item.controller;
    try {
      const asset = await mediaLibrary.upload(
        latest.current.target,
        item.file,
        (progress) => {
          const total = progress.total ?? item.file.size;
          update(item.key, {
            loaded: progress.loaded,
            total,
            status: progress.loaded >= total ? 'processing' : 'uploading',
          });
        },
        signal,
      );
      update(item.key, { status: 'done', asset, loaded: 1, total: 1 });
      latest.current.onUploaded(asset);
    } catch (caught) {
      update(item.key, signal.aborted ? { status: 'cancelled' } : { status: 'failed', error: toApiError(caught) });
    } finally {
      running.current -= 1;
      pump();
    }
  };

  const add = (files: FileList | File[] | null) => {
    if (!files || files.length === 0) return;
    const max = limit.state === 'known' ? limit.bytes : null;
    const added: UploadItem[] = Array.from(files).map((file) => {
      const refusal =
        max !== null && looksLikeImage(file) && file.size > max
          ? `Not sent: ${formatBytes(file.size)} is over this project’s image limit of ${formatBytes(max)}.`
          : null;
      return {
        key: nextKey.current++,
        file,
        status: refusal ? 'refused' : 'queued',
        loaded: 0,
        total: file.size,
        error: null,
        refusal,
        asset: null,
        controller: new AbortController(),
      };
    });
    setItems((list) => [...list, ...added]);
    controllers.current.push(...added.map((item) => item.controller));
    queue.current.push(...added.filter((item) => item.status === 'queued'));
    pump();
  };

  // A file dropped anywhere on the page is uploaded, never opened by the browser in place of the Studio.
  // The listeners stay for the page's life and call the latest `add` (which reads the latest limit).
  const addDropped = useRef(add);
  addDropped.current = add;
  useEffect(() => {
    const hasFiles = (event: globalThis.DragEvent) => Array.from(event.dataTransfer?.types ?? []).includes('Files');
    const over = (event: globalThis.DragEvent) => {
      if (!hasFiles(event)) return;
      event.preventDefault();
      if (event.dataTransfer) event.dataTransfer.dropEffect = 'copy';
      setDragging(true);
    };
    const leave = (event: globalThis.DragEvent) => {
      if (event.relatedTarget === null) setDragging(false);
    };
    const drop = (event: globalThis.DragEvent) => {
      if (!hasFiles(event)) return;
      event.preventDefault();
      setDragging(false);
      addDropped.current(event.dataTransfer?.files ?? null);
    };
    window.addEventListener('dragover', over);
    window.addEventListener('dragleave', leave);
    window.addEventListener('drop', drop);
    return () => {
      window.removeEventListener('dragover', over);
      window.removeEventListener('dragleave', leave);
      window.removeEventListener('drop', drop);
    };
  }, []);

  // Leaving the page cancels what is still being sent.
  useEffect(
    () => () => {
      for (const controller of controllers.current) controller.abort();
    },
    [],
  );

  const clearFinished = () =>
    setItems((list) =>
      list.filter((item) => item.status === 'queued' || item.status === 'uploading' || item.status === 'processing'),
    );
  const finished = items.some((item) => !['queued', 'uploading', 'processing'].includes(item.status));

  return (
    <section className="media-upload" aria-labelledby={`${inputId}-heading`}>
      <h2 id={`${inputId}-heading`}>Upload</h2>
      <LimitExplanation limit={limit} />
      <div className={`drop-zone${dragging ? ' drop-zone-active' : ''}`}>
        <label htmlFor={inputId}>Choose files to upload</label>
        <input
          id={inputId}
          type="file"
          multiple
          onChange={(event) => {
            add(event.target.files);
            event.target.value = '';
          }}
        />
        <p className="muted">or drop files anywhere on this page. Several files upload at once.</p>
      </div>
      {items.length > 0 ? (
        <>
          <ul className="upload-list" aria-label="Uploads">
            {items.map((item) => (
              <UploadRow
                key={item.key}
                item={item}
                onCancel={() => item.controller.abort()}
                onShow={() => item.asset && onShow(item.asset)}
              />
            ))}
          </ul>
          {finished ? (
            <button type="button" onClick={clearFinished}>
              Clear finished uploads
            </button>
          ) : null}
        </>
      ) : null}
    </section>
  );
}

const STATUS_TEXT: Record<Status, string> = {
  queued: 'Waiting',
  uploading: 'Uploading',
  processing: 'Sent; the server is storing it',
  done: 'Uploaded',
  failed: 'Failed',
  cancelled: 'Cancelled',
  refused: 'Not sent',
};

function UploadRow({ item, onCancel, onShow }: { item: UploadItem; onCancel(): void; onShow(): void }) {
  const percent = item.total > 0 ? Math.min(100, Math.round((item.loaded / item.total) * 100)) : 0;
  const active = item.status === 'queued' || item.status === 'uploading' || item.status === 'processing';
  return (
    <li className={`upload-item upload-${item.status}`}>
      <div className="upload-head">
        {item.file.name} · {formatBytes(item.file.size)} · {STATUS_TEXT[item.status]}
        {item.status === 'uploading' ? ` ${percent}%` : ''}
      </div>
      {active || item.status === 'done' ? (
        <progress
          max={100}
          value={item.status === 'done' ? 100 : percent}
          aria-label={`Upload progress of ${item.file.name}`}
        />
      ) : null}
      {item.refusal ? <p className="field-error">{item.refusal}</p> : null}
      {item.error ? <ErrorNotice error={item.error} title={`${item.file.name}:`} /> : null}
      {active && item.status !== 'processing' ? (
        <button type="button" className="row-button" onClick={onCancel}>
          Cancel {item.file.name}
        </button>
      ) : null}
      {item.asset ? (
        <button type="button" className="row-button" onClick={onShow}>
          Show {item.file.name}
        </button>
      ) : null}
    </li>
  );
}
