/**
 * `/environments`: the project's environments with what each extends; create one (empty, extending
 * another, or cloned from one), promote published content between two with the plan shown first,
 * and delete one (not the default).
 */
import { type FormEvent, useEffect, useId, useRef, useState } from 'react';
import { type CmsError, type Environment, environments, fieldMessages } from '../../api/index.js';
import { toApiError, useStudio } from '../../state/studio-context.js';
import { DataTable } from '../../ui/data-table.js';
import { Field } from '../../ui/field.js';
import { Empty, ErrorNotice, Notice } from '../../ui/notice.js';
import { TextField } from '../../ui/text-field.js';
import { useApiData } from '../../ui/use-api-data.js';
import { formatTime } from '../dashboard-page.js';
import { PromotePanel } from './promote-panel.js';

/** The server's environment name rule (core's ENVIRONMENT_NAME_PATTERN), checked before sending. */
const NAME_PATTERN = /^[a-z0-9][a-z0-9-]{0,62}$/;

// A message that survives the Studio reloading its project data after a create or a delete.
let flash: string | null = null;

export function EnvironmentsPage() {
  const { target, bootstrap, setTarget } = useStudio();
  const canManage = bootstrap.me.capabilities['settings.manage'];
  const environmentList = useApiData(() => environments.list(target.project), [target.project]);
  const list = environmentList.data;
  const [message] = useState<string | null>(() => flash);
  useEffect(() => {
    flash = null;
  }, []);
  const [deleting, setDeleting] = useState<Environment | null>(null);
  const [promoteFrom, setPromoteFrom] = useState<string | null>(null);

  /** Reloads the Studio's project data, so the environment switcher shows the change. */
  const refreshStudio = (text: string, environment = target.environment) => {
    flash = text;
    setTarget({ project: target.project, environment });
  };

  if (!target.project) {
    return (
      <>
        <h1>Environments</h1>
        <Empty>There is no project to show.</Empty>
      </>
    );
  }

  const childrenOf = (name: string) => (list ?? []).filter((env) => env.extends === name).map((env) => env.name);

  return (
    <>
      <h1>Environments</h1>
      <p className="muted">
        Project <strong>{target.project}</strong>. An environment holds its own documents; one that extends another
        shares its base's schema and adds to it. Content moves between environments by promotion.
      </p>
      {message ? <Notice kind="success">{message}</Notice> : null}
      <ErrorNotice error={environmentList.error} />
      <DataTable
        items={list}
        failed={environmentList.error !== null}
        columns={['Name', 'Extends', 'Created']}
        actions={canManage}
        row={(env) => {
          const children = childrenOf(env.name);
          return (
            <tr key={env.name}>
              <th scope="row">
                {env.name}
                {env.isDefault ? <span className="badge badge-published">default</span> : null}
                {env.name === target.environment ? <span className="badge badge-draft">open now</span> : null}
              </th>
              <td>{env.extends ?? <span className="muted">nothing</span>}</td>
              <td>{formatTime(env.createdAt)}</td>
              {canManage ? (
                <td>
                  <div className="actions">
                    <button
                      type="button"
                      onClick={() => setPromoteFrom(env.name)}
                      aria-label={`Promote from ${env.name}`}
                    >
                      Promote…
                    </button>
                    {env.isDefault ? (
                      <small className="muted">
                        The default environment cannot be deleted: requests that name no environment use it.
                      </small>
                    ) : children.length > 0 ? (
                      <small className="muted">
                        Cannot be deleted while {children.join(', ')} extend{children.length === 1 ? 's' : ''} it.
                      </small>
                    ) : (
                      <button
                        type="button"
                        className="danger"
                        onClick={() => setDeleting(env)}
                        aria-label={`Delete ${env.name}`}
                      >
                        Delete…
                      </button>
                    )}
                  </div>
                </td>
              ) : null}
            </tr>
          );
        }}
      />
      {!canManage ? (
        <Notice kind="info">
          Creating, promoting and deleting environments needs the <code>settings:manage</code> permission.
        </Notice>
      ) : null}
      {canManage && list ? (
        <>
          <PromotePanel
            key={promoteFrom ?? ''}
            project={target.project}
            environments={list}
            initialSource={promoteFrom}
            onApplied={() => void environmentList.reload()}
          />
          <CreateEnvironmentForm
            project={target.project}
            environments={list}
            onCreated={(env) => refreshStudio(`Created environment ${env.name}.`)}
          />
        </>
      ) : null}
      {deleting ? (
        <DeleteEnvironmentDialog
          project={target.project}
          environment={deleting}
          onClose={() => setDeleting(null)}
          onDeleted={(name) => {
            const fallback = list?.find((env) => env.isDefault)?.name ?? target.environment;
            refreshStudio(
              `Deleted environment ${name} and everything in it.`,
              target.environment === name ? fallback : target.environment,
            );
          }}
        />
      ) : null}
    </>
  );
}

type Mode = 'empty' | 'extends' | 'clone';

function CreateEnvironmentForm({
  project,
  environments: list,
  onCreated,
}: {
  project: string;
  environments: Environment[];
  onCreated: (env: Environment) => void;
}) {
  const ids = useId();
  const [name, setName] = useState('');
  const [mode, setMode] = useState<Mode>('clone');
  const [source, setSource] = useState(list.find((env) => env.isDefault)?.name ?? list[0]?.name ?? '');
  const [problem, setProblem] = useState<string | null>(null);
  const [error, setError] = useState<CmsError | null>(null);
  const [busy, setBusy] = useState(false);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setError(null);
    if (!NAME_PATTERN.test(name)) {
      setProblem('Use lowercase letters, digits and hyphens, starting with a letter or digit (at most 63).');
      return;
    }
    if (list.some((env) => env.name === name)) {
      setProblem('This project already has an environment with this name.');
      return;
    }
    setProblem(null);
    setBusy(true);
    try {
      const created = await environments.create(project, {
        name,
        ...(mode === 'extends' ? { extends: source } : {}),
        ...(mode === 'clone' ? { cloneFrom: source } : {}),
      });
      onCreated(created);
    } catch (caught) {
      const apiError = toApiError(caught);
      setError(apiError);
      const fields = fieldMessages(apiError);
      if (fields['body.name']) setProblem(`The name ${fields['body.name']}.`);
      setBusy(false);
    }
  };

  return (
    <section className="panel" aria-labelledby={`${ids}-heading`}>
      <h2 id={`${ids}-heading`}>Create an environment</h2>
      <form onSubmit={submit} noValidate>
        <TextField
          label="Name"
          hint="Lowercase letters, digits and hyphens, such as “staging” or “redesign-2025”."
          value={name}
          onChange={(e) => setName(e.target.value)}
          error={problem}
          autoComplete="off"
        />
        <fieldset className="group">
          <legend>Start from</legend>
          <label className="field-inline">
            <input type="radio" name="mode" checked={mode === 'clone'} onChange={() => setMode('clone')} />A copy of
            another environment: its schema, every document and its history (then independent)
          </label>
          <label className="field-inline">
            <input type="radio" name="mode" checked={mode === 'extends'} onChange={() => setMode('extends')} />
            Extending another environment: no documents, its base's schema plus what this one adds
          </label>
          <label className="field-inline">
            <input type="radio" name="mode" checked={mode === 'empty'} onChange={() => setMode('empty')} />
            Empty: no schema and no documents
          </label>
        </fieldset>
        {mode !== 'empty' ? (
          <Field label={mode === 'clone' ? 'Copy of' : 'Extends'}>
            {(control) => (
              <select {...control} value={source} onChange={(e) => setSource(e.target.value)}>
                {list.map((env) => (
                  <option key={env.name} value={env.name}>
                    {env.name}
                  </option>
                ))}
              </select>
            )}
          </Field>
        ) : null}
        <ErrorNotice error={error} title="The environment was not created." />
        <button type="submit" className="primary" disabled={busy}>
          {busy ? 'Creating…' : 'Create environment'}
        </button>
      </form>
    </section>
  );
}

function DeleteEnvironmentDialog({
  project,
  environment,
  onClose,
  onDeleted,
}: {
  project: string;
  environment: Environment;
  onClose: () => void;
  onDeleted: (name: string) => void;
}) {
  const dialog = useRef<HTMLDialogElement>(null);
  const [typed, setTyped] = useState('');
  const [error, setError] = useState<CmsError | null>(null);
  const [busy, setBusy] = useState(false);
  const ids = useId();

  useEffect(() => {
    dialog.current?.showModal();
  }, []);

  const confirm = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    setError(null);
    try {
      await environments.remove(project, environment.name);
      dialog.current?.close();
      onDeleted(environment.name);
    } catch (caught) {
      setError(toApiError(caught));
      setBusy(false);
    }
  };

  return (
    <dialog ref={dialog} aria-labelledby={`${ids}-title`} onClose={onClose}>
      <form onSubmit={confirm}>
        <h2 id={`${ids}-title`}>Delete environment {environment.name}?</h2>
        <p>
          Every document, version and schema of <strong>{environment.name}</strong> is deleted, with the grants and
          webhooks on it. This cannot be undone.
        </p>
        <TextField
          label={`Type ${environment.name} to confirm`}
          value={typed}
          onChange={(e) => setTyped(e.target.value)}
          autoComplete="off"
        />
        <ErrorNotice error={error} title="The environment was not deleted." />
        <div className="actions">
          <button type="submit" className="danger" disabled={typed !== environment.name || busy}>
            {busy ? 'Deleting…' : 'Delete environment'}
          </button>
          <button type="button" onClick={() => dialog.current?.close()}>
            Cancel
          </button>
        </div>
      </form>
    </dialog>
  );
}
