import { type FormEvent, useState } from 'react';
import { type CmsError, type ContentDocument, content, DEFAULT_LOCALE } from '../api/index.js';
import { DeleteDocumentDialog } from '../editor/delete-dialog.js';
import { Slot } from '../extensions/slot.js';
import { Link, navigate } from '../routing/navigation.js';
import { useVariants } from '../state/shared-queries.js';
import { toApiError, useStudio } from '../state/studio-context.js';
import { ErrorNotice, Notice } from '../ui/notice.js';
import { StatusBadge } from './content-list-page.js';

/**
 * The document's status and unpublishing, locale variants and the document's life (duplicate,
 * delete, restore), then the widgets modules put in `content.editor.sidebar`. Publish itself sits in
 * the editor's sticky bar beside Save (pages/editor/publish-control.tsx).
 */
export function EditorSidebar({
  doc,
  dirty,
  localized,
  onChanged,
}: {
  doc: ContentDocument;
  dirty: boolean;
  localized: boolean;
  onChanged(): Promise<void>;
}) {
  const { target, bootstrap, schemaHash } = useStudio();
  const can = bootstrap.me.capabilities;
  const [error, setError] = useState<CmsError | null>(null);
  const [busy, setBusy] = useState(false);
  const [message, setMessage] = useState<string | null>(null);
  const [translateLocale, setTranslateLocale] = useState('');
  const [confirmingDelete, setConfirmingDelete] = useState(false);
  const base = `/content/${encodeURIComponent(doc.type)}`;

  // Without the list (still loading, or refused) the section offers only "Translate into".
  const variants = useVariants(target, doc.documentId, localized).data ?? [];

  const act = async (work: () => Promise<void>, done?: string) => {
    setBusy(true);
    setError(null);
    setMessage(null);
    try {
      await work();
      if (done) setMessage(done);
    } catch (caught) {
      setError(toApiError(caught));
    } finally {
      setBusy(false);
    }
  };

  const translate = (event: FormEvent) => {
    event.preventDefault();
    void act(async () => {
      const created = await content.create(target, schemaHash, {
        type: doc.type,
        path: doc.path,
        locale: translateLocale.trim(),
        format: doc.format,
        frontmatter: doc.frontmatter,
        body: doc.body,
        translationGroupId: doc.translationGroupId,
      });
      setTranslateLocale('');
      navigate(`${base}/${created.documentId}`);
    });
  };

  return (
    <aside className="editor-side" aria-label="Document">
      <section>
        <h2>Status</h2>
        <p>
          <StatusBadge doc={doc} />
        </p>
        <dl className="facts">
          <dt>Published version</dt>
          <dd>{doc.publishedVersion ?? 'none'}</dd>
          <dt>Draft revision</dt>
          <dd>{doc.draftRevision}</dd>
          <dt>Locale</dt>
          <dd>{doc.locale === DEFAULT_LOCALE ? 'not localized' : doc.locale}</dd>
          <dt>Format</dt>
          <dd>{doc.format}</dd>
        </dl>
        <ErrorNotice error={error} />
        {message ? <Notice kind="success">{message}</Notice> : null}
        {doc.isDeleted ? null : (
          <div className="stack">
            {can['content.publish'] && doc.publishedVersion !== null ? (
              <button
                type="button"
                disabled={busy}
                onClick={() =>
                  act(async () => {
                    await content.unpublish(target, doc.documentId);
                    await onChanged();
                  }, 'Unpublished.')
                }
              >
                Unpublish
              </button>
            ) : null}
          </div>
        )}
      </section>
      {localized && !doc.isDeleted ? (
        <section>
          <h2>Translations</h2>
          <ul className="variants">
            {variants.map((variant) => (
              <li key={variant.documentId}>
                {variant.documentId === doc.documentId ? (
                  <strong aria-current="page">{variant.locale}</strong>
                ) : (
                  <Link to={`${base}/${variant.documentId}`}>{variant.locale}</Link>
                )}{' '}
                <small className="muted">
                  {variant.publishedVersion === null ? 'draft' : `v${variant.publishedVersion}`}
                </small>
              </li>
            ))}
          </ul>
          <form onSubmit={translate} className="inline-form">
            <label htmlFor="translate-locale">Translate into</label>
            <input
              id="translate-locale"
              placeholder="e.g. fr"
              value={translateLocale}
              onChange={(e) => setTranslateLocale(e.target.value)}
            />
            <button type="submit" disabled={busy || dirty || !translateLocale.trim()}>
              Create translation
            </button>
          </form>
        </section>
      ) : null}
      <section>
        <h2>Document</h2>
        <div className="stack">
          {can['content.write'] && !doc.isDeleted ? (
            <button
              type="button"
              disabled={busy}
              onClick={() =>
                act(async () => {
                  const copy = await content.duplicate(target, doc.documentId);
                  navigate(`${base}/${copy.documentId}`);
                })
              }
            >
              Duplicate
            </button>
          ) : null}
          {can['content.delete'] && !doc.isDeleted ? (
            <button type="button" className="danger" disabled={busy} onClick={() => setConfirmingDelete(true)}>
              Delete
            </button>
          ) : null}
          {confirmingDelete ? (
            <DeleteDocumentDialog
              doc={doc}
              busy={busy}
              onCancel={() => setConfirmingDelete(false)}
              onConfirm={() =>
                void act(async () => {
                  await content.remove(target, doc.documentId);
                  setConfirmingDelete(false);
                  navigate(base, { force: true });
                })
              }
            />
          ) : null}
          {doc.isDeleted && can['content.write'] ? (
            <button
              type="button"
              disabled={busy}
              onClick={() =>
                act(async () => {
                  await content.restoreDeleted(target, doc.documentId);
                  await onChanged();
                }, 'Restored.')
              }
            >
              Restore deleted document
            </button>
          ) : null}
        </div>
      </section>
      <Slot id="content.editor.sidebar" props={{ doc, dirty, onChanged }} />
    </aside>
  );
}
