import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { type CmsError, content, type Target } from '../api/index.js';
import { changedKeys, showValue, TextDiff } from '../editor/text-diff.js';
import { Link, navigate } from '../routing/navigation.js';
import { toApiError, useStudio } from '../state/studio-context.js';
import { DataTable } from '../ui/data-table.js';
import { labelOf, titleOf } from '../ui/labels.js';
import { ErrorNotice, Loading, Notice } from '../ui/notice.js';
import { formatTime } from './dashboard-page.js';

type Side = 'draft' | number;
type Snapshot = { frontmatter: Record<string, unknown>; body: string };

/** A published version's frontmatter and body: never changes once published, so read once. */
function useVersionSnapshot(target: Target, id: string, side: Side | null) {
  return useQuery({
    queryKey: ['content-version', target.project, target.environment, id, side],
    queryFn: () => content.version(target, id, side as number),
    enabled: typeof side === 'number',
    staleTime: Number.POSITIVE_INFINITY,
  });
}

/** `/content/:type/:id/history`: published versions, a diff between any two (or the draft), restore. */
export function HistoryPage({ type, id }: { type: string; id: string }) {
  const { target, bootstrap } = useStudio();
  const client = useQueryClient();
  // The document and its versions together, read afresh each time the page opens (the draft moves
  // on in the editor); a restore puts the new draft in (the versions stay).
  const historyKey = ['content-history', target.project, target.environment, id];
  const history = useQuery({
    queryKey: historyKey,
    queryFn: async () => {
      const [doc, page] = await Promise.all([content.get(target, id), content.versions(target, id)]);
      return { doc, versions: page.data };
    },
    gcTime: 0,
  });
  const doc = history.data?.doc ?? null;
  const versions = history.data?.versions ?? null;
  // "From" is the latest version until the person picks another side.
  const [picked, setLeft] = useState<Side | null>(null);
  const left = picked ?? versions?.[0]?.version ?? null;
  const [right, setRight] = useState<Side>('draft');
  const leftVersion = useVersionSnapshot(target, id, left);
  const rightVersion = useVersionSnapshot(target, id, right);
  const [restoreError, setError] = useState<CmsError | null>(null);
  const readError = history.error ?? leftVersion.error ?? rightVersion.error;
  const error = restoreError ?? (readError ? toApiError(readError) : null);
  const [message, setMessage] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const editor = `/content/${encodeURIComponent(type)}/${id}`;

  const snapshotOf = (side: Side | null, version: Snapshot | undefined): Snapshot | null => {
    if (side === null) return null;
    if (side === 'draft') return doc ? { frontmatter: doc.frontmatter, body: doc.body } : null;
    return version ?? null;
  };
  const a = snapshotOf(left, leftVersion.data);
  const b = snapshotOf(right, rightVersion.data);
  const name = (side: Side | null) => (side === 'draft' ? 'current draft' : `version ${side}`);

  const restore = async (version: number) => {
    if (!window.confirm(`Replace the draft with version ${version}? The history is kept.`)) return;
    setBusy(true);
    setError(null);
    try {
      const result = await content.restoreVersion(target, id, version);
      setMessage(
        `The draft now holds version ${result.restoredFromVersion} (revision ${result.draftRevision}). Publish it to make it live.`,
      );
      const fresh = await content.get(target, id);
      client.setQueryData<typeof history.data>(historyKey, (before) => before && { ...before, doc: fresh });
    } catch (caught) {
      setError(toApiError(caught));
    } finally {
      setBusy(false);
    }
  };

  const options = [
    <option key="draft" value="draft">
      Current draft
    </option>,
    ...(versions ?? []).map((v) => (
      <option key={v.version} value={v.version}>
        Version {v.version}
      </option>
    )),
  ];
  const parse = (value: string): Side => (value === 'draft' ? 'draft' : Number(value));

  return (
    <>
      <nav className="breadcrumbs" aria-label="Breadcrumbs">
        <Link to={`/content/${encodeURIComponent(type)}`}>{labelOf(type)}</Link> <span aria-hidden="true">/</span>{' '}
        <Link to={editor}>{doc ? titleOf(doc) : '…'}</Link> <span aria-hidden="true">/</span> <span>History</span>
      </nav>
      <h1>History{doc ? ` of ${titleOf(doc)}` : ''}</h1>
      <ErrorNotice error={error} />
      {message ? (
        <Notice kind="success">
          {message} <Link to={editor}>Open the editor</Link>
        </Notice>
      ) : null}
      <DataTable
        items={versions}
        failed={versions === null && error !== null}
        empty="Not published yet: versions appear here each time it is published."
        caption="Published versions"
        className="list"
        columns={['Version', 'Published', 'Change summary']}
        actions
        row={(v) => (
          <tr key={v.version}>
            <td>
              {v.version}
              {doc?.publishedVersion === v.version ? <span className="badge badge-published">Live</span> : null}
            </td>
            <td>
              <time dateTime={v.publishedAt}>{formatTime(v.publishedAt)}</time>
            </td>
            <td>{v.changeSummary ?? <span className="muted">—</span>}</td>
            <td>
              {bootstrap.me.capabilities['content.write'] ? (
                <button type="button" disabled={busy} onClick={() => restore(v.version)}>
                  Restore version {v.version}
                </button>
              ) : null}
            </td>
          </tr>
        )}
      />
      {versions && versions.length > 0 ? (
        <section aria-labelledby="compare-title">
          <h2 id="compare-title">Compare</h2>
          <div className="toolbar">
            <label>
              <span>From</span>
              <select value={String(left ?? '')} onChange={(e) => setLeft(parse(e.target.value))}>
                {options}
              </select>
            </label>
            <label>
              <span>To</span>
              <select value={String(right)} onChange={(e) => setRight(parse(e.target.value))}>
                {options}
              </select>
            </label>
          </div>
          {a && b ? (
            <>
              <h3>Fields</h3>
              {changedKeys(a.frontmatter, b.frontmatter).length === 0 ? (
                <p className="muted">The fields are the same.</p>
              ) : (
                <table className="compare">
                  <thead>
                    <tr>
                      <th scope="col">Field</th>
                      <th scope="col">{name(left)}</th>
                      <th scope="col">{name(right)}</th>
                    </tr>
                  </thead>
                  <tbody>
                    {changedKeys(a.frontmatter, b.frontmatter).map((key) => (
                      <tr key={key}>
                        <th scope="row">{labelOf(key)}</th>
                        <td>
                          <pre>{showValue(a.frontmatter[key])}</pre>
                        </td>
                        <td>
                          <pre>{showValue(b.frontmatter[key])}</pre>
                        </td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              )}
              <h3>Body</h3>
              <TextDiff before={a.body} after={b.body} labels={[name(left), name(right)]} />
            </>
          ) : (
            <Loading />
          )}
        </section>
      ) : null}
      <p>
        <button type="button" onClick={() => navigate(editor)}>
          Back to the editor
        </button>
      </p>
    </>
  );
}
