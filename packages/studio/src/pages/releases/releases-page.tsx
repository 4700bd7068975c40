import { type FormEvent, useId, useState } from 'react';
import { type CmsError, releases } from '../../api/index.js';
import { Link, match, navigate, useLocation } from '../../routing/navigation.js';
import { toApiError, useStudio } from '../../state/studio-context.js';
import { Empty, ErrorNotice, Loading } from '../../ui/notice.js';
import { Pager } from '../../ui/pager.js';
import { useApiData } from '../../ui/use-api-data.js';
import { ReleaseDetail } from './release-detail.js';
import { ReleaseStatusBadge } from './release-status.js';
import { formatInZone } from './zoned-time.js';

const PAGE_SIZE = 20;

/**
 * `/releases` (domain.content's route): the environment's releases, newest first, and a form to
 * create one; `/releases/<id>` opens one (its items, schedule, publish, revert).
 */
export function ReleasesPage() {
  const { path } = useLocation();
  const opened = match('/releases/:id', path);
  if (opened) return <ReleaseDetail key={opened.id} id={opened.id as string} />;
  return <ReleaseList />;
}

function ReleaseList() {
  const { target } = useStudio();
  const [offset, setOffset] = useState(0);
  const list = useApiData(() => releases.list(target, { limit: PAGE_SIZE, offset }), [target, offset]);
  return (
    <>
      <h1>Releases</h1>
      <p className="muted">
        A release publishes (or unpublishes) many documents together, now or at a time you choose: all of them or, when
        one is invalid, none.
      </p>
      <CreateRelease />
      <ErrorNotice error={list.error} title="The releases could not be loaded." />
      {list.data === null && !list.error ? <Loading /> : null}
      {list.data && list.data.data.length === 0 ? <Empty>No releases yet.</Empty> : null}
      {list.data && list.data.data.length > 0 ? (
        <table className="list">
          <caption className="visually-hidden">Releases</caption>
          <thead>
            <tr>
              <th scope="col">Title</th>
              <th scope="col">Status</th>
              <th scope="col">Documents</th>
              <th scope="col">Scheduled for</th>
              <th scope="col">Published</th>
            </tr>
          </thead>
          <tbody>
            {list.data.data.map((release) => (
              <tr key={release.id}>
                <td>
                  <Link to={`/releases/${release.id}`}>{release.title}</Link>
                </td>
                <td>
                  <ReleaseStatusBadge status={release.status} />
                </td>
                <td>{release.itemCount}</td>
                <td>{release.scheduledAt ? formatInZone(release.scheduledAt, release.timeZone) : '—'}</td>
                <td>{release.publishedAt ? formatInZone(release.publishedAt, null) : '—'}</td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : null}
      {list.data ? (
        <Pager
          label="Pages of releases"
          page={offset / PAGE_SIZE + 1}
          pageSize={PAGE_SIZE}
          total={list.data.pagination.total}
          unit={{ one: 'release', many: 'releases' }}
          onPage={(page) => setOffset((page - 1) * PAGE_SIZE)}
        />
      ) : null}
    </>
  );
}

function CreateRelease() {
  const { target } = useStudio();
  const id = useId();
  const [title, setTitle] = useState('');
  const [description, setDescription] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<CmsError | null>(null);

  const create = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    setError(null);
    try {
      const created = await releases.create(target, {
        title: title.trim(),
        ...(description.trim() ? { description: description.trim() } : {}),
      });
      navigate(`/releases/${created.id}`);
    } catch (caught) {
      setError(toApiError(caught));
      setBusy(false);
    }
  };

  return (
    <form onSubmit={create} className="inline-form" aria-labelledby={`${id}-heading`}>
      <h2 id={`${id}-heading`}>New release</h2>
      <label htmlFor={`${id}-title`}>Title</label>
      <input id={`${id}-title`} value={title} required maxLength={200} onChange={(e) => setTitle(e.target.value)} />
      <label htmlFor={`${id}-description`}>Description (optional)</label>
      <input
        id={`${id}-description`}
        value={description}
        maxLength={2000}
        onChange={(e) => setDescription(e.target.value)}
      />
      <button type="submit" className="primary" disabled={busy || title.trim() === ''}>
        Create release
      </button>
      <ErrorNotice error={error} title="The release was not created." />
    </form>
  );
}
