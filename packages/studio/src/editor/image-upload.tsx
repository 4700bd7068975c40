import { type MutableRefObject, useCallback, useEffect, useRef, useState } from 'react';
import { mediaLibrary } from '../api/media.js';
import { toApiError, useStudio } from '../state/studio-context.js';
import type { BodyEditorHandle } from './body-editor-handle.js';
import { altTextFor, bodyAddress, imageMarkdown } from './markdown-format.js';

/** What the person is told about the uploads under way (a polite live region reads it out). */
interface UploadNote {
  kind: 'progress' | 'done' | 'error';
  text: string;
}

let uploads = 0;

/** An image uploaded here: its asset, the alt text proposed for it and the one its media file holds. */
interface Uploaded {
  id: string;
  proposed: string;
  stored: string;
}

/** The alt text of the image at `address` in the body (`![alt](address)`), null when it is not there. */
export function altTextAt(body: string, address: string): string | null {
  const end = body.indexOf(`](${address})`);
  if (end < 0) return null;
  const start = body.lastIndexOf('![', end);
  const alt = start < 0 ? '' : body.slice(start + 2, end);
  return start < 0 || /[\r\n[\]]/.test(alt) ? null : alt.trim();
}

/**
 * Pasted, dropped or picked images: each is uploaded through the media API with its progress shown,
 * a placeholder holds its place in the body meanwhile, and it ends as `![alt](address)` with the
 * proposed alt text selected, so the next keystrokes describe the image. What the person writes
 * there becomes the media file's alt text too (`cms.media.update`, a second after typing stops), so
 * the library and the next insert of the image have it.
 */
export function useImageUpload(editor: MutableRefObject<BodyEditorHandle | null>, body: string) {
  const { target, bootstrap } = useStudio();
  const [note, setNote] = useState<UploadNote | null>(null);
  const uploaded = useRef(new Map<string, Uploaded>());

  useEffect(() => {
    if (uploaded.current.size === 0) return;
    const timer = window.setTimeout(() => {
      for (const [address, image] of uploaded.current) {
        const alt = altTextAt(body, address);
        if (alt === null || alt === '' || alt === image.proposed || alt === image.stored) continue;
        image.stored = alt;
        mediaLibrary.update(target, image.id, { alt }).catch((caught: unknown) => {
          image.stored = '';
          setNote({ kind: 'error', text: `The alt text was not saved on the image: ${toApiError(caught).message}` });
        });
      }
    }, 1000);
    return () => window.clearTimeout(timer);
  }, [body, target]);

  const uploadOne = useCallback(
    async (file: File, placeholder: string) => {
      const name = file.name || 'pasted image';
      setNote({ kind: 'progress', text: `Uploading ${name}…` });
      try {
        const asset = await mediaLibrary.upload(
          target,
          file,
          (progress) => {
            if (progress.total) {
              const percent = Math.floor((progress.loaded / progress.total) * 100);
              setNote({ kind: 'progress', text: `Uploading ${name}: ${percent}%` });
            }
          },
          new AbortController().signal,
        );
        const alt = asset.alt?.trim() || altTextFor(asset.filename);
        const markdown = imageMarkdown(alt, bodyAddress(asset.url, bootstrap.publicUrl));
        uploaded.current.set(markdown.slice(markdown.lastIndexOf('](') + 2, -1), {
          id: asset.id,
          proposed: alt.replace(/[[\]\\]/g, ''),
          stored: asset.alt?.trim() ?? '',
        });
        // The alt text is selected: whatever is typed next describes the image.
        const select = { from: 2, to: 2 + alt.replace(/[[\]\\]/g, '').length };
        if (!editor.current?.replace(placeholder, markdown, select)) editor.current?.insert(markdown, null);
        setNote({
          kind: 'done',
          text: `Inserted ${name}. Its alt text “${alt}” is selected: type what the image shows for people who cannot see it.`,
        });
      } catch (caught) {
        editor.current?.replace(placeholder, '');
        setNote({ kind: 'error', text: `${name} was not uploaded: ${toApiError(caught).message}` });
      }
    },
    [editor, target, bootstrap.publicUrl],
  );

  const upload = useCallback(
    (files: readonly File[], pos: number | null) => {
      // Every image's place is held at once (one after the other), then they are uploaded in turn.
      const placed = files.map((file, index) => {
        uploads += 1;
        const placeholder = `![Uploading ${altTextFor(file.name)} (${uploads})…]()`;
        editor.current?.insert(placeholder, index === 0 ? pos : null);
        return { file, placeholder };
      });
      void (async () => {
        for (const { file, placeholder } of placed) await uploadOne(file, placeholder);
      })();
    },
    [editor, uploadOne],
  );

  const status = (
    <p className="upload-note" role="status" aria-live="polite">
      {note?.kind === 'error' ? <strong>Upload failed: </strong> : null}
      {note?.text ?? ''}
    </p>
  );
  return { upload, status };
}
