/**
 * A user's access: one row per grant (project, environment or every environment, role), saved
 * together with `PUT /api/v1/users/{id}/grants`, which replaces the whole list.
 */

import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useId, useRef, useState } from 'react';
import { type CmsError, type Grant, people, type User } from '../../api/index.js';
import { useEnvironmentLists } from '../../state/shared-queries.js';
import { toApiError, useStudio } from '../../state/studio-context.js';
import { DataTable } from '../../ui/data-table.js';
import { ErrorNotice, Notice } from '../../ui/notice.js';
import { RoleSelect } from '../../ui/role-select.js';

interface Row extends Grant {
  key: number;
}

export function GrantsEditor({ user, onClose }: { user: User; onClose: () => void }) {
  const { bootstrap } = useStudio();
  const projects = bootstrap.projects;
  const client = useQueryClient();
  const nextKey = useRef(0);
  const keyed = (grants: Grant[]): Row[] => grants.map((g) => ({ ...g, key: nextKey.current++ }));
  // The saved grants (each row keyed once, when read); `edits` holds the rows once the person changes any.
  const grantsKey = ['user-grants', user.id];
  const saved = useQuery({ queryKey: grantsKey, queryFn: async () => keyed(await people.grants(user.id)), gcTime: 0 });
  const [edits, setEdits] = useState<Row[] | null>(null);
  const rows = edits ?? saved.data ?? null;
  const setRows = (update: (all: Row[]) => Row[]) => setEdits(update(rows ?? []));
  const [saveError, setError] = useState<CmsError | null>(null);
  const [message, setMessage] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const heading = useRef<HTMLHeadingElement>(null);
  const ids = useId();

  // The editor opens (one per user: keyed by the user's id) with its heading focused.
  useEffect(() => heading.current?.focus(), []);

  // The environments of every project a row names, read once each.
  const envLists = useEnvironmentLists([...new Set((rows ?? []).map((r) => r.project).filter(Boolean))]);
  const envs = (project: string) => envLists[project]?.data ?? [];
  const envError = Object.values(envLists).find((list) => list.error)?.error;
  const readError = saved.error ?? envError;
  const error = saveError ?? (readError ? toApiError(readError) : null);

  const change = (key: number, patch: Partial<Grant>) =>
    setRows((all) => all.map((row) => (row.key === key ? { ...row, ...patch } : row)));

  const grantsOf = (list: Row[]): Grant[] =>
    list.map(({ project, environment, role }) => ({ project, environment, role }));
  const dirty = edits !== null && JSON.stringify(grantsOf(edits)) !== JSON.stringify(grantsOf(saved.data ?? []));

  const save = async () => {
    if (!rows) return;
    setBusy(true);
    setError(null);
    setMessage(null);
    try {
      const answer = await people.replaceGrants(user.id, grantsOf(rows));
      client.setQueryData(grantsKey, keyed(answer));
      setEdits(null);
      setMessage(`Saved the access of ${user.email}.`);
    } catch (caught) {
      setError(toApiError(caught));
    } finally {
      setBusy(false);
    }
  };

  return (
    <section className="panel" aria-labelledby={`${ids}-heading`}>
      <h3 id={`${ids}-heading`} ref={heading} tabIndex={-1}>
        Access of {user.email}
      </h3>
      {user.role === 'admin' ? (
        <Notice kind="info">
          {user.email} is an administrator: they have every permission in every project, whatever the grants say.
        </Notice>
      ) : (
        <p className="hint">
          A grant gives a role in one project, for every environment or for one. In an environment, a grant for that
          environment wins over one for every environment, so it can narrow as well as widen. Without a grant, the
          project is invisible to them.
        </p>
      )}
      <DataTable
        items={rows}
        failed={rows === null && error !== null}
        empty="No grants."
        columns={['Project', 'Environment', 'Role']}
        actions
        row={(row, index) => (
          <tr key={row.key}>
            <td>
              <select
                aria-label={`Project of grant ${index + 1}`}
                value={row.project}
                onChange={(e) => change(row.key, { project: e.target.value, environment: '*' })}
              >
                {projects.some((p) => p.slug === row.project) ? null : (
                  <option value={row.project}>{row.project}</option>
                )}
                {projects.map((p) => (
                  <option key={p.slug} value={p.slug}>
                    {p.name}
                  </option>
                ))}
              </select>
            </td>
            <td>
              <select
                aria-label={`Environment of grant ${index + 1}`}
                value={row.environment}
                onChange={(e) => change(row.key, { environment: e.target.value })}
              >
                <option value="*">Every environment</option>
                {row.environment !== '*' && !envs(row.project).some((e) => e.name === row.environment) ? (
                  <option value={row.environment}>{row.environment}</option>
                ) : null}
                {envs(row.project).map((env) => (
                  <option key={env.name} value={env.name}>
                    {env.name}
                  </option>
                ))}
              </select>
            </td>
            <td>
              <RoleSelect
                aria-label={`Role of grant ${index + 1}`}
                value={row.role}
                onChange={(role) => change(row.key, { role })}
              />
            </td>
            <td>
              <button
                type="button"
                onClick={() => setRows((all) => all.filter((r) => r.key !== row.key))}
                aria-label={`Remove grant ${index + 1}`}
              >
                Remove
              </button>
            </td>
          </tr>
        )}
      />
      <ErrorNotice error={error} title="The access was not saved." />
      {message ? <Notice kind="success">{message}</Notice> : null}
      <div className="actions">
        <button
          type="button"
          disabled={rows === null || projects.length === 0}
          onClick={() =>
            setRows((all) => [
              ...all,
              { key: nextKey.current++, project: projects[0]?.slug ?? '', environment: '*', role: 'viewer' },
            ])
          }
        >
          Add grant
        </button>
        <button type="button" className="primary" disabled={!dirty || busy} onClick={save}>
          {busy ? 'Saving…' : 'Save access'}
        </button>
        <button type="button" onClick={onClose}>
          Close
        </button>
      </div>
    </section>
  );
}
