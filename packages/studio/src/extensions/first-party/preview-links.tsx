import { useState } from 'react';
import { type CmsError, content } from '../../api/index.js';
import { toApiError, useStudio } from '../../state/studio-context.js';
import { ErrorNotice } from '../../ui/notice.js';
import type { SlotWidgetProps } from '../props.js';

const PREVIEW_URL_KEY = 'cms.studio.previewUrl';

/**
 * `content.editor.sidebar` (domain.content): a preview token for the draft, as a link to the
 * site's preview address (remembered per project) or as the bare token.
 */
export function PreviewLinks({ doc, dirty, title }: SlotWidgetProps<'content.editor.sidebar'>) {
  const { target } = useStudio();
  const [previewUrl, setPreviewUrl] = useState(
    () => window.localStorage.getItem(`${PREVIEW_URL_KEY}.${target.project}`) ?? '',
  );
  const [preview, setPreview] = useState<{ link: string | null; token: string; expiresAt: string } | null>(null);
  const [error, setError] = useState<CmsError | null>(null);
  const [busy, setBusy] = useState(false);

  if (doc.isDeleted) return null;

  const makePreview = async () => {
    setBusy(true);
    setError(null);
    try {
      const address = previewUrl.trim();
      window.localStorage.setItem(`${PREVIEW_URL_KEY}.${target.project}`, address);
      const { token, expiresAt } = await content.previewToken(target, doc.documentId, address || undefined);
      let link: string | null = null;
      if (address) {
        const url = new URL(address);
        url.searchParams.set('token', token);
        link = url.toString();
      }
      setPreview({ link, token, expiresAt });
    } catch (caught) {
      setError(toApiError(caught));
    } finally {
      setBusy(false);
    }
  };

  return (
    <section>
      <h2>{title}</h2>
      <label htmlFor="preview-url">Site preview address</label>
      <input
        id="preview-url"
        type="url"
        placeholder="https://site.example/api/preview"
        value={previewUrl}
        onChange={(e) => setPreviewUrl(e.target.value)}
      />
      <button type="button" disabled={busy || dirty} onClick={makePreview}>
        Create preview link
      </button>
      <ErrorNotice error={error} />
      {preview ? (
        <p className="preview-link">
          {preview.link ? (
            <a href={preview.link} target="_blank" rel="noreferrer noopener">
              Open preview
            </a>
          ) : (
            <>
              Token: <code className="token">{preview.token}</code>
            </>
          )}{' '}
          <small className="muted">valid until {new Date(preview.expiresAt).toLocaleTimeString()}</small>
        </p>
      ) : null}
    </section>
  );
}
