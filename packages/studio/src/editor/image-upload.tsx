import { type MutableRefObject, useCallback, useState } from 'react';
import { mediaLibrary } from '../api/media.js';
import { toApiError, useStudio } from '../state/studio-context.js';
import type { BodyEditorHandle } from './body-editor-handle.js';
import { altTextFor, imageMarkdown } from './markdown-format.js';

/** What the person is told about the uploads under way (a polite live region reads it out). */
interface UploadNote {
  kind: 'progress' | 'done' | 'error';
  text: string;
}

let uploads = 0;

/**
 * Pasted, dropped or picked images: each is uploaded through the media API with its progress shown,
 * a placeholder holds its place in the body meanwhile, and it ends as `![alt](address)` with the
 * proposed alt text selected, so the next keystrokes describe the image.
 */
export function useImageUpload(editor: MutableRefObject<BodyEditorHandle | null>) {
  const { target } = useStudio();
  const [note, setNote] = useState<UploadNote | null>(null);

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
        const markdown = imageMarkdown(alt, asset.url);
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
    [editor, target],
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
