import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { type ContentSummary, content, releases, type Target } from '../../api/index.js';
import { toApiError, useStudio } from '../../state/studio-context.js';
import { ErrorNotice, Notice } from '../../ui/notice.js';
import { rowsKey } from './use-content-rows.js';

type Verb = 'publish' | 'unpublish' | 'delete';
const DONE: Record<Verb, string> = { publish: 'Published', unpublish: 'Unpublished', delete: 'Deleted' };

/**
 * What to do with the selected documents of a list: publish, unpublish, delete (each document in
 * turn; one refusal does not stop the others, and each is named), or add them all to an open release
 * in one request. The list is read again afterwards.
 */
export function BulkActions({
  target,
  type,
  selected,
  onDone,
}: {
  target: Target;
  type: string;
  selected: ContentSummary[];
  onDone(): void;
}) {
  const { bootstrap } = useStudio();
  const can = bootstrap.me.capabilities;
  const client = useQueryClient();
  const [release, setRelease] = useState('');
  const [outcome, setOutcome] = useState<string | null>(null);
  const openReleases = useQuery({
    queryKey: ['releases', target.project, target.environment, 'open'],
    queryFn: () => releases.list(target, { status: 'open', limit: 100 }),
    enabled: can['content.write'] === true,
  });

  const run = useMutation({
    mutationFn: async (verb: Verb) => {
      const refused: string[] = [];
      let done = 0;
      for (const doc of selected) {
        try {
          if (verb === 'publish') await content.publish(target, doc.documentId);
          else if (verb === 'unpublish') await content.unpublish(target, doc.documentId);
          else await content.remove(target, doc.documentId);
          done += 1;
        } catch (caught) {
          refused.push(`${doc.path}: ${toApiError(caught).message}`);
        }
      }
      return `${DONE[verb]} ${done} of ${selected.length}.${refused.length ? ` Not done: ${refused.join('; ')}` : ''}`;
    },
    onSuccess: (message) => setOutcome(message),
    onSettled: async () => {
      await client.invalidateQueries({ queryKey: rowsKey(target, type) });
      onDone();
    },
  });
  const addToRelease = useMutation({
    mutationFn: () =>
      releases.addItems(
        target,
        release,
        selected.map((doc) => ({ documentId: doc.documentId, action: 'publish' as const })),
      ),
    onSuccess: () => {
      const title = openReleases.data?.data.find((r) => r.id === release)?.title ?? 'the release';
      setOutcome(`Added ${selected.length} to ${title}.`);
      onDone();
    },
  });
  const busy = run.isPending || addToRelease.isPending;
  const error = addToRelease.error ? toApiError(addToRelease.error) : null;

  return (
    <section className="bulk-actions" aria-label="Selected documents">
      <p role="status">
        {selected.length === 0 ? 'Select documents to act on several at once.' : `${selected.length} selected`}
      </p>
      {selected.length > 0 ? (
        <div className="toolbar">
          {can['content.publish'] ? (
            <>
              <button type="button" disabled={busy} onClick={() => run.mutate('publish')}>
                Publish
              </button>
              <button type="button" disabled={busy} onClick={() => run.mutate('unpublish')}>
                Unpublish
              </button>
            </>
          ) : null}
          {can['content.delete'] ? (
            <button
              type="button"
              className="danger"
              disabled={busy}
              onClick={() => {
                if (window.confirm(`Delete ${selected.length} documents? They can be restored from the list.`))
                  run.mutate('delete');
              }}
            >
              Delete
            </button>
          ) : null}
          {can['content.write'] ? (
            <form
              className="inline-form"
              onSubmit={(event) => {
                event.preventDefault();
                addToRelease.mutate();
              }}
            >
              <label>
                <span>Release</span>
                <select value={release} onChange={(e) => setRelease(e.target.value)}>
                  <option value="">Choose an open release</option>
                  {(openReleases.data?.data ?? []).map((r) => (
                    <option key={r.id} value={r.id}>
                      {r.title}
                    </option>
                  ))}
                </select>
              </label>
              <button type="submit" disabled={busy || !release}>
                Add to release
              </button>
            </form>
          ) : null}
        </div>
      ) : null}
      {outcome ? <Notice kind="success">{outcome}</Notice> : null}
      <ErrorNotice error={error} title="Not added to the release." />
    </section>
  );
}
