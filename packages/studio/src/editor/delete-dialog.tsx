import { useQuery } from '@tanstack/react-query';
import { type ContentDocument, content } from '../api/index.js';
import { Link } from '../routing/navigation.js';
import { toApiError, useStudio } from '../state/studio-context.js';
import { ConfirmDialog } from '../ui/confirm-dialog.js';
import { labelOf } from '../ui/labels.js';
import { ErrorNotice } from '../ui/notice.js';

/** How many referrers the dialog lists; more are counted, not shown. */
const SHOWN = 20;

type Referrer = Awaited<ReturnType<typeof content.referrers>>['data'][number];

/** Where a referrer points at the document: its draft, its published content, or both. */
function whereOf(referrer: Referrer): string {
  if (referrer.inDraft && referrer.inPublished) return 'draft and published';
  return referrer.inPublished ? 'published version' : 'draft';
}

/**
 * "Delete": asks first, listing under "Referenced by" the documents whose reference fields point at
 * this one (`GET /content/{documentId}/referrers`), so nobody breaks a link unawares.
 */
export function DeleteDocumentDialog({
  doc,
  busy,
  onConfirm,
  onCancel,
}: {
  doc: ContentDocument;
  busy: boolean;
  onConfirm(): void;
  onCancel(): void;
}) {
  const { target } = useStudio();
  // Asked afresh each time the dialog opens: someone may have added a reference since.
  const answer = useQuery({
    queryKey: ['referrers', target.project, target.environment, doc.documentId, SHOWN],
    queryFn: () => content.referrers(target, doc.documentId, { limit: SHOWN }),
    staleTime: 0,
    gcTime: 0,
  });
  const referrers: Referrer[] | null = answer.data?.data ?? null;
  const total = answer.data?.pagination.total ?? 0;
  const error = answer.error ? toApiError(answer.error) : null;

  return (
    <ConfirmDialog
      title={`Delete ${doc.path}?`}
      confirmLabel={total > 0 ? `Delete anyway` : 'Delete'}
      busy={busy}
      onConfirm={onConfirm}
      onCancel={onCancel}
    >
      <p>It can be restored from the list (status “Including deleted”).</p>
      <section className="referrers" aria-labelledby="referrers-title" aria-busy={referrers === null && !error}>
        <h3 id="referrers-title">Referenced by</h3>
        {error ? (
          <ErrorNotice error={error} title="Could not check which documents point here." />
        ) : referrers === null ? (
          <p role="status">Checking which documents point here…</p>
        ) : referrers.length === 0 ? (
          <p>No other document points here.</p>
        ) : (
          <>
            <p>
              {total === 1 ? '1 document points' : `${total} documents point`} here. Their references will show as
              missing until you change them.
            </p>
            <ul>
              {referrers.map((referrer) => (
                <li key={referrer.documentId}>
                  <Link to={`/content/${encodeURIComponent(referrer.type)}/${referrer.documentId}`}>
                    {referrer.title ?? referrer.path}
                  </Link>{' '}
                  <span className="muted">
                    {labelOf(referrer.type)} · {referrer.path} · {referrer.fields.map(labelOf).join(', ')} (
                    {whereOf(referrer)})
                  </span>
                </li>
              ))}
            </ul>
            {total > referrers.length ? <p>And {total - referrers.length} more.</p> : null}
          </>
        )}
      </section>
    </ConfirmDialog>
  );
}
