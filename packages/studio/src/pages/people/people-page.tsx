/**
 * `/settings/people`: the users of the instance (create, change role, disable or enable), each
 * user's access per project and environment (grants), invitations, and the signed-in person's own
 * sessions with "Sign out everywhere".
 */

import type { Role } from '@cms/core/scopes';
import { type FormEvent, useState } from 'react';
import { type CmsError, fieldMessages, people, type User } from '../../api/index.js';
import { toApiError, useStudio } from '../../state/studio-context.js';
import { DataTable } from '../../ui/data-table.js';
import { Field } from '../../ui/field.js';
import { ErrorNotice, Notice } from '../../ui/notice.js';
import { ROLE_HELP, RoleSelect } from '../../ui/role-select.js';
import { TextField } from '../../ui/text-field.js';
import { useApiData } from '../../ui/use-api-data.js';
import { formatTime } from '../dashboard-page.js';
import { GrantsEditor } from './grants-editor.js';
import { InvitesSection } from './invites-section.js';
import { SessionsSection } from './sessions-section.js';

const PAGE_SIZE = 50;

export function PeoplePage() {
  const { bootstrap } = useStudio();
  const canManage = bootstrap.me.capabilities['users.manage'];
  return (
    <>
      <h1>People</h1>
      {canManage ? (
        <>
          <UsersSection />
          <InvitesSection />
        </>
      ) : (
        <Notice kind="info">
          Managing users needs the <code>users:manage</code> permission, which administrators have. You can still see
          and end your own sessions below.
        </Notice>
      )}
      <SessionsSection />
    </>
  );
}

function UsersSection() {
  const { bootstrap } = useStudio();
  const [offset, setOffset] = useState(0);
  const page = useApiData(() => people.list(offset, PAGE_SIZE), [offset]);
  const [error, setError] = useState<CmsError | null>(null);
  const [message, setMessage] = useState<string | null>(null);
  const [roles, setRoles] = useState<Record<string, Role>>({});
  const [editing, setEditing] = useState<User | null>(null);
  const [busy, setBusy] = useState<string | null>(null);

  const act = async (user: User, change: { role?: Role; disabled?: boolean }, done: string) => {
    setBusy(user.id);
    setError(null);
    setMessage(null);
    try {
      await people.update(user.id, change);
      setMessage(done);
      setRoles((all) => {
        const { [user.id]: _dropped, ...rest } = all;
        return rest;
      });
      await page.reload();
    } catch (caught) {
      setError(toApiError(caught));
    } finally {
      setBusy(null);
    }
  };

  const toggleDisabled = (user: User) => {
    if (
      !user.disabled &&
      !window.confirm(
        `Disable ${user.email}? They are signed out everywhere at once and cannot sign in until enabled again. Their keys stop working.`,
      )
    ) {
      return;
    }
    void act(
      user,
      { disabled: !user.disabled },
      user.disabled ? `${user.email} is enabled again.` : `${user.email} is disabled and signed out.`,
    );
  };

  const users = page.data?.data ?? null;
  const total = page.data?.pagination.total ?? 0;
  return (
    <section aria-labelledby="users-heading">
      <h2 id="users-heading">Users</h2>
      <CreateUserForm
        onCreated={async (user) => {
          setMessage(`Created ${user.email}.`);
          await page.reload();
        }}
      />
      <ErrorNotice error={page.error} title="The users could not be loaded." />
      <ErrorNotice error={error} title="The change was not saved." />
      {message ? <Notice kind="success">{message}</Notice> : null}
      {users && users.length > 0 ? <p className="hint">{ROLE_HELP}</p> : null}
      <DataTable
        items={users}
        failed={page.error !== null}
        empty="No users."
        columns={['Email', 'Role', 'Status', 'Created']}
        actions
        row={(user) => {
          const picked = roles[user.id];
          const chosen = picked ?? user.role;
          const self = user.id === bootstrap.me.principalId;
          return (
            <tr key={user.id}>
              <th scope="row">
                {user.email}
                {self ? <span className="badge badge-draft">you</span> : null}
              </th>
              <td>
                <div className="actions">
                  <RoleSelect
                    aria-label={`Role of ${user.email}`}
                    value={chosen}
                    onChange={(role) => setRoles((all) => ({ ...all, [user.id]: role }))}
                  />
                  <button
                    type="button"
                    disabled={chosen === user.role || busy === user.id}
                    onClick={() => picked && act(user, { role: picked }, `${user.email} is now ${picked}.`)}
                    aria-label={`Save role of ${user.email}`}
                  >
                    Save role
                  </button>
                </div>
              </td>
              <td>
                <span className={`badge ${user.disabled ? 'badge-error' : 'badge-published'}`}>
                  {user.disabled ? 'Disabled' : 'Active'}
                </span>
                {user.hasPassword ? null : <span className="badge badge-draft">no password</span>}
              </td>
              <td>{formatTime(user.createdAt)}</td>
              <td>
                <div className="actions">
                  <button
                    type="button"
                    onClick={() => setEditing(user)}
                    aria-label={`Access of ${user.email}`}
                    aria-expanded={editing?.id === user.id}
                  >
                    Access
                  </button>
                  <button
                    type="button"
                    className={user.disabled ? undefined : 'danger'}
                    disabled={busy === user.id}
                    onClick={() => toggleDisabled(user)}
                    aria-label={`${user.disabled ? 'Enable' : 'Disable'} ${user.email}`}
                  >
                    {user.disabled ? 'Enable' : 'Disable'}
                  </button>
                </div>
              </td>
            </tr>
          );
        }}
      />
      {total > PAGE_SIZE ? (
        <nav className="pager" aria-label="Pages of users">
          <button type="button" disabled={offset === 0} onClick={() => setOffset(Math.max(0, offset - PAGE_SIZE))}>
            Previous
          </button>
          <span>
            {offset + 1}–{Math.min(offset + PAGE_SIZE, total)} of {total}
          </span>
          <button type="button" disabled={offset + PAGE_SIZE >= total} onClick={() => setOffset(offset + PAGE_SIZE)}>
            Next
          </button>
        </nav>
      ) : null}
      {editing ? <GrantsEditor key={editing.id} user={editing} onClose={() => setEditing(null)} /> : null}
    </section>
  );
}

function CreateUserForm({ onCreated }: { onCreated: (user: User) => unknown }) {
  const [email, setEmail] = useState('');
  const [role, setRole] = useState<Role>('viewer');
  const [password, setPassword] = useState('');
  const [problems, setProblems] = useState<Record<string, string>>({});
  const [error, setError] = useState<CmsError | null>(null);
  const [busy, setBusy] = useState(false);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const found: Record<string, string> = {};
    if (!/^[^\s@]+@[^\s@]+$/.test(email.trim())) found.email = 'Enter an email address.';
    if (password && [...password].length < 12) found.password = 'Use at least 12 characters, or leave it empty.';
    setProblems(found);
    setError(null);
    if (Object.keys(found).length > 0) return;
    setBusy(true);
    try {
      const user = await people.create({ email: email.trim(), role, ...(password ? { password } : {}) });
      setEmail('');
      setPassword('');
      await onCreated(user);
    } catch (caught) {
      const apiError = toApiError(caught);
      setError(apiError);
      const fields = fieldMessages(apiError);
      setProblems({
        ...(fields['body.email'] ? { email: fields['body.email'] } : {}),
        ...(fields['body.password'] ? { password: fields['body.password'] } : {}),
      });
    } finally {
      setBusy(false);
    }
  };

  return (
    <details className="panel">
      <summary>Create a user</summary>
      <form onSubmit={submit} noValidate>
        <TextField
          label="Email"
          type="email"
          autoComplete="off"
          value={email}
          onChange={(e) => setEmail(e.target.value)}
          error={problems.email}
        />
        <Field id="new-user-role" label="Role" hint={ROLE_HELP}>
          {(control) => <RoleSelect {...control} value={role} onChange={setRole} />}
        </Field>
        <TextField
          label="Password (optional)"
          hint="Without one, the person cannot sign in until a password is set; an invite lets them choose their own."
          type="password"
          autoComplete="new-password"
          value={password}
          onChange={(e) => setPassword(e.target.value)}
          error={problems.password}
        />
        <ErrorNotice error={error} title="The user was not created." />
        <button type="submit" className="primary" disabled={busy}>
          {busy ? 'Creating…' : 'Create user'}
        </button>
      </form>
    </details>
  );
}
