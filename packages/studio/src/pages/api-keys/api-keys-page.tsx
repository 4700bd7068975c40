/**
 * `/settings/api-keys`: create keys for automation (scopes, a project/environment allowlist, an
 * optional expiry; the key is shown once), list every key the signed-in person could have created
 * (the command line's `cms_key_cli_` keys from the device flow among them) and revoke them.
 */

import { SCOPES } from '@cms/core/scopes';
import { type FormEvent, Fragment, type ReactNode, useId, useState } from 'react';
import {
  type ApiKey,
  apiKeys,
  type CmsError,
  type CreatedApiKey,
  type Environment,
  fieldMessages,
} from '../../api/index.js';
import { useEnvironmentLists } from '../../state/shared-queries.js';
import { toApiError, useStudio } from '../../state/studio-context.js';
import { CopyButton } from '../../ui/copy-button.js';
import { DataTable } from '../../ui/data-table.js';
import { Field } from '../../ui/field.js';
import { ErrorNotice, Loading, Notice } from '../../ui/notice.js';
import { TextField } from '../../ui/text-field.js';
import { useApiData } from '../../ui/use-api-data.js';
import { formatTime } from '../dashboard-page.js';

/** What each scope lets a key do, in words. */
const SCOPE_HINTS: Record<string, string> = {
  'schema:read': 'read the schema',
  'schema:write': 'sync the schema',
  'content:read': 'read published content',
  'content:read:draft': 'read drafts',
  'content:write': 'create, edit and delete documents',
  'content:write:draft': 'save drafts only',
  'content:publish': 'publish and unpublish',
  'content:delete': 'delete documents',
  'media:read': 'list media',
  'media:upload': 'upload media',
  'media:delete': 'delete media',
  'webhooks:read': 'see webhooks and deliveries',
  'webhooks:write': 'manage webhooks',
  'users:manage': 'manage users, grants and invites',
  'settings:manage': 'manage keys, environments and settings',
};

/** Words for a key's kind. */
export function kindLabel(kind: string): string {
  if (kind === 'cli') return 'Command line';
  if (kind === 'preview') return 'Preview';
  return 'Automation';
}

const pairKey = (project: string, environment: string) => `${project}\u0000${environment}`;

type Expiry = 'never' | '30' | '90' | '365' | 'date';

/** The expiry chosen in the form as an ISO timestamp (a date means the end of that day, local time). */
export function expiryOf(choice: Expiry, date: string, now = new Date()): string | null {
  if (choice === 'never') return null;
  if (choice === 'date') return date ? new Date(`${date}T23:59:59`).toISOString() : null;
  return new Date(now.getTime() + Number(choice) * 24 * 60 * 60 * 1000).toISOString();
}

function statusOf(key: ApiKey, now: number): 'active' | 'revoked' | 'expired' {
  if (key.revokedAt) return 'revoked';
  if (key.expiresAt && Date.parse(key.expiresAt) <= now) return 'expired';
  return 'active';
}

export function ApiKeysPage() {
  const keys = useApiData(() => apiKeys.list(), []);
  const [error, setError] = useState<CmsError | null>(null);
  const [created, setCreated] = useState<CreatedApiKey | null>(null);
  const [showInactive, setShowInactive] = useState(false);
  const [message, setMessage] = useState<string | null>(null);

  const revoke = async (key: ApiKey) => {
    if (!window.confirm(`Revoke the key "${key.label}" (${key.prefix}…)? Anything using it stops working at once.`)) {
      return;
    }
    setError(null);
    setMessage(null);
    try {
      await apiKeys.revoke(key.id);
      setMessage(`Revoked "${key.label}".`);
      await keys.reload();
    } catch (caught) {
      setError(toApiError(caught));
    }
  };

  const now = Date.now();
  const shown = keys.data?.filter((key) => showInactive || statusOf(key, now) === 'active') ?? null;

  return (
    <>
      <h1>API keys</h1>
      <p className="muted">
        Keys let programs use the API: a site build, a deploy script, an import. Each key holds only the scopes and the
        projects and environments you give it. Keys that <code>cms login</code> obtains for the command line are listed
        here too.
      </p>
      {created ? (
        <NewKeyPanel created={created} onDone={() => setCreated(null)} />
      ) : (
        <CreateKeyForm
          onCreated={async (key) => {
            setCreated(key);
            setMessage(null);
            await keys.reload();
          }}
        />
      )}
      <section aria-labelledby="keys-heading">
        <h2 id="keys-heading">Keys</h2>
        <ErrorNotice error={error ?? keys.error} />
        {message ? <Notice kind="success">{message}</Notice> : null}
        <label className="field-inline">
          <input type="checkbox" checked={showInactive} onChange={(e) => setShowInactive(e.target.checked)} />
          Show revoked and expired keys
        </label>
        <DataTable
          className="list admin-table api-keys-table"
          items={shown}
          failed={keys.error !== null}
          empty="No keys yet."
          columns={['Label', 'Kind', 'Scopes', 'Projects and environments', 'Last used', 'Expires', 'Status']}
          actions
          row={(key) => {
            const status = statusOf(key, now);
            return (
              <tr key={key.id}>
                <td>
                  <strong className="key-label">{key.label}</strong>
                  <br />
                  <code className="key-prefix">{key.prefix}…</code>
                  <br />
                  <small className="muted">created {formatTime(key.createdAt)}</small>
                </td>
                <td>{kindLabel(key.kind)}</td>
                <td>
                  {key.scopes.length === SCOPES.length ? (
                    'every scope'
                  ) : (
                    <ul className="plain-list">
                      {key.scopes.map((scope) => (
                        <li key={scope}>
                          <code>{breakableScope(scope)}</code>
                        </li>
                      ))}
                    </ul>
                  )}
                </td>
                <td>
                  <ul className="plain-list">
                    {key.contextAllowlist.map((pair) => (
                      <li key={pairKey(pair.project, pair.environment)}>
                        {pair.project === '*' ? 'every project' : pair.project} /{' '}
                        {pair.environment === '*' ? 'every environment' : pair.environment}
                      </li>
                    ))}
                  </ul>
                </td>
                <td>{key.lastUsedAt ? formatTime(key.lastUsedAt) : 'never'}</td>
                <td>{key.expiresAt ? formatTime(key.expiresAt) : 'never'}</td>
                <td>
                  <span className={`badge ${status === 'active' ? 'badge-published' : 'badge-error'}`}>
                    {status === 'active' ? 'Active' : status === 'revoked' ? 'Revoked' : 'Expired'}
                  </span>
                </td>
                <td>
                  {status === 'revoked' ? null : (
                    <button
                      type="button"
                      className="danger"
                      onClick={() => revoke(key)}
                      aria-label={`Revoke ${key.label}`}
                    >
                      Revoke
                    </button>
                  )}
                </td>
              </tr>
            );
          }}
        />
      </section>
    </>
  );
}

/** `content:read:draft` with a line-break opportunity after each colon, for a narrow Scopes column. */
function breakableScope(scope: string): ReactNode {
  return scope.split(':').map((part, index) => (
    <Fragment key={part}>
      {index > 0 ? (
        <>
          :<wbr />
        </>
      ) : null}
      {part}
    </Fragment>
  ));
}

/** The new key, this once, with a copy button and the warning that it is not shown again. */
function NewKeyPanel({ created, onDone }: { created: CreatedApiKey; onDone: () => void }) {
  const warning = useId();
  return (
    <section className="panel secret-panel" aria-labelledby="new-key-heading">
      <h2 id="new-key-heading">Key "{created.label}" created</h2>
      <Notice kind="warning">
        <span id={warning}>
          Copy this key now and keep it somewhere safe: <strong>you will not see it again</strong>. Only its prefix (
          <code>{created.prefix}</code>) stays visible here.
        </span>
      </Notice>
      <p className="code-display">
        <output aria-label="New API key" className="mono secret-value">
          {created.apiKey}
        </output>
      </p>
      <div className="actions">
        <CopyButton text={created.apiKey} label="Copy key" confirm="button" describedBy={warning} />
        <button type="button" onClick={onDone}>
          Done, I have copied it
        </button>
      </div>
    </section>
  );
}

interface ProjectEnvironments {
  project: string;
  name: string;
  environments: Environment[] | null;
  error: CmsError | null;
}

function CreateKeyForm({ onCreated }: { onCreated: (key: CreatedApiKey) => Promise<void> }) {
  const { bootstrap } = useStudio();
  const [label, setLabel] = useState('');
  const [scopes, setScopes] = useState<Set<string>>(new Set(['content:read']));
  const [pairs, setPairs] = useState<Set<string>>(new Set());
  const [expiry, setExpiry] = useState<Expiry>('never');
  const [expiryDate, setExpiryDate] = useState('');
  const [problems, setProblems] = useState<Record<string, string>>({});
  const [error, setError] = useState<CmsError | null>(null);
  const [busy, setBusy] = useState(false);
  const ids = useId();
  // Each project's environments, read once each; a project whose list was refused shows why and offers none.
  const lists = useEnvironmentLists(bootstrap.projects.map((p) => p.slug));
  const projects: ProjectEnvironments[] = bootstrap.projects.map((p) => {
    const list = lists[p.slug];
    const error = list?.error ? toApiError(list.error) : null;
    return { project: p.slug, name: p.name, environments: error ? [] : (list?.data ?? null), error };
  });

  const toggle = (set: Set<string>, value: string, on: boolean) => {
    const next = new Set(set);
    if (on) next.add(value);
    else next.delete(value);
    return next;
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const found: Record<string, string> = {};
    if (!label.trim()) found.label = 'Give the key a label, so you know later what uses it.';
    if (scopes.size === 0) found.scopes = 'Choose at least one scope.';
    if (pairs.size === 0) found.pairs = 'Choose at least one project and environment.';
    if (expiry === 'date' && !expiryDate) found.expiry = 'Choose the expiry date.';
    setProblems(found);
    setError(null);
    if (Object.keys(found).length > 0) return;
    setBusy(true);
    try {
      const contextAllowlist = [...pairs].map((pair) => {
        const [project, environment] = pair.split('\u0000') as [string, string];
        return { project, environment };
      });
      const key = await apiKeys.create({
        label: label.trim(),
        scopes: SCOPES.filter((scope) => scopes.has(scope)),
        contextAllowlist,
        expiresAt: expiryOf(expiry, expiryDate),
      });
      setLabel('');
      setPairs(new Set());
      await onCreated(key);
    } catch (caught) {
      const apiError = toApiError(caught);
      setError(apiError);
      const fields = fieldMessages(apiError);
      const mapped: Record<string, string> = {};
      for (const [path, text] of Object.entries(fields)) {
        if (path.startsWith('body.label')) mapped.label = text;
        else if (path.startsWith('body.scopes')) mapped.scopes = text;
        else if (path.startsWith('body.contextAllowlist')) mapped.pairs = text;
        else if (path.startsWith('body.expiresAt')) mapped.expiry = `Expiry ${text}`;
      }
      setProblems(mapped);
    } finally {
      setBusy(false);
    }
  };

  return (
    <section className="panel" aria-labelledby="create-key-heading">
      <h2 id="create-key-heading">Create a key</h2>
      <form onSubmit={submit} noValidate>
        <TextField
          label="Label"
          hint="What will use the key, such as “site build” or “nightly import”."
          value={label}
          onChange={(e) => setLabel(e.target.value)}
          error={problems.label}
          maxLength={200}
        />
        <fieldset className="group checks" aria-describedby={problems.scopes ? `${ids}-scopes-error` : undefined}>
          <legend>Scopes</legend>
          <div className="actions">
            <button type="button" onClick={() => setScopes(new Set(['content:read']))}>
              Read published content only
            </button>
            <button type="button" onClick={() => setScopes(new Set(SCOPES))}>
              Select every scope
            </button>
            <button type="button" onClick={() => setScopes(new Set())}>
              Clear
            </button>
          </div>
          <ul className="check-grid">
            {SCOPES.map((scope) => (
              <li key={scope}>
                <label>
                  <input
                    type="checkbox"
                    checked={scopes.has(scope)}
                    onChange={(e) => setScopes((s) => toggle(s, scope, e.target.checked))}
                  />
                  <code>{scope}</code> <span className="muted">{SCOPE_HINTS[scope] ?? ''}</span>
                </label>
              </li>
            ))}
          </ul>
          {problems.scopes ? (
            <small id={`${ids}-scopes-error`} className="field-error">
              {problems.scopes}
            </small>
          ) : null}
        </fieldset>
        <fieldset className="group checks" aria-describedby={problems.pairs ? `${ids}-pairs-error` : undefined}>
          <legend>Projects and environments</legend>
          <p className="hint">The key works only where you tick. “Every environment” includes ones created later.</p>
          {projects.map((project) => (
            <fieldset key={project.project} className="pair-group">
              <legend>
                {project.name} <code>{project.project}</code>
              </legend>
              <ErrorNotice error={project.error} />
              {project.environments === null ? <Loading label="Loading environments…" /> : null}
              <ul className="check-grid">
                {project.environments && project.environments.length > 0
                  ? [{ name: '*', isDefault: false }, ...project.environments].map((env) => {
                      const value = pairKey(project.project, env.name);
                      return (
                        <li key={value}>
                          <label>
                            <input
                              type="checkbox"
                              checked={pairs.has(value)}
                              onChange={(e) => setPairs((s) => toggle(s, value, e.target.checked))}
                            />
                            {env.name === '*' ? 'Every environment' : env.name}
                            {env.isDefault ? <span className="muted"> (default)</span> : null}
                          </label>
                        </li>
                      );
                    })
                  : null}
              </ul>
            </fieldset>
          ))}
          {problems.pairs ? (
            <small id={`${ids}-pairs-error`} className="field-error">
              {problems.pairs}
            </small>
          ) : null}
        </fieldset>
        {/* A refused date shows on the date field below; any other refused expiry here. */}
        <Field label="Expires" error={expiry === 'date' ? null : problems.expiry}>
          {(control) => (
            <select {...control} value={expiry} onChange={(e) => setExpiry(e.target.value as Expiry)}>
              <option value="never">Never</option>
              <option value="30">In 30 days</option>
              <option value="90">In 90 days</option>
              <option value="365">In a year</option>
              <option value="date">On a date…</option>
            </select>
          )}
        </Field>
        {expiry === 'date' ? (
          <TextField
            label="Expiry date"
            hint="The key stops working at the end of this day."
            type="date"
            value={expiryDate}
            onChange={(e) => setExpiryDate(e.target.value)}
            error={problems.expiry}
          />
        ) : null}
        <ErrorNotice error={error} title="The key was not created." />
        <div className="actions">
          <button type="submit" className="primary" disabled={busy}>
            {busy ? 'Creating…' : 'Create key'}
          </button>
        </div>
      </form>
    </section>
  );
}
