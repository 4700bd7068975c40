/**
 * Invitations: send one (email, role, optionally a project), copy its link, see the pending ones
 * (`GET /api/v1/invites`) and withdraw one. The server never shows a link again (its token exists only
 * in the answer that created the invite), so the links of invites created in this tab are kept in
 * memory, never stored, and offered beside them while moving between Studio pages.
 */

import type { Role } from '@cms/core/scopes';
import { type FormEvent, useState, useSyncExternalStore } from 'react';
import { type CmsError, fieldMessages, type Invite, type PendingInvite, people } from '../../api/index.js';
import { toApiError, useStudio } from '../../state/studio-context.js';
import { CopyButton } from '../../ui/copy-button.js';
import { Field } from '../../ui/field.js';
import { Listing } from '../../ui/listing.js';
import { ErrorNotice, Notice } from '../../ui/notice.js';
import { ROLE_HELP, RoleSelect } from '../../ui/role-select.js';
import { TextField } from '../../ui/text-field.js';
import { useApiData } from '../../ui/use-api-data.js';
import { formatTime } from '../dashboard-page.js';

// Invites sent in this tab: kept in memory only (the links are secrets), newest first.
let sent: Invite[] = [];
const listeners = new Set<() => void>();
function remember(invite: Invite) {
  // A new invite for an email withdraws that email's earlier ones (as the server does).
  sent = [invite, ...sent.filter((i) => i.email !== invite.email)];
  for (const listener of listeners) listener();
}
function subscribe(listener: () => void) {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function InvitesSection() {
  const { bootstrap } = useStudio();
  const invites = useSyncExternalStore(subscribe, () => sent);
  const [email, setEmail] = useState('');
  const [role, setRole] = useState<Role>('editor');
  const [project, setProject] = useState('');
  const [problems, setProblems] = useState<Record<string, string>>({});
  const [error, setError] = useState<CmsError | null>(null);
  const [busy, setBusy] = useState(false);
  const [message, setMessage] = useState<string | null>(null);
  const pending = useApiData(() => people.pendingInvites(), []);
  const [withdrawError, setWithdrawError] = useState<CmsError | null>(null);

  const withdraw = async (invite: PendingInvite) => {
    if (!window.confirm(`Withdraw the invitation for ${invite.email}? Its link stops working.`)) return;
    setMessage(null);
    setWithdrawError(null);
    try {
      await people.withdrawInvite(invite.id);
      setMessage(`Withdrew the invitation for ${invite.email}.`);
    } catch (caught) {
      setWithdrawError(toApiError(caught));
    }
    await pending.reload();
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setError(null);
    setMessage(null);
    if (!/^[^\s@]+@[^\s@]+$/.test(email.trim())) {
      setProblems({ email: 'Enter an email address.' });
      return;
    }
    setProblems({});
    setBusy(true);
    try {
      const invite = await people.invite({ email: email.trim(), role, ...(project ? { project } : {}) });
      remember(invite);
      setMessage(`Invitation for ${invite.email} created. Send them the link below.`);
      setEmail('');
      await pending.reload();
    } catch (caught) {
      const apiError = toApiError(caught);
      setError(apiError);
      const fields = fieldMessages(apiError);
      if (fields['body.email']) setProblems({ email: `This email ${fields['body.email']}` });
    } finally {
      setBusy(false);
    }
  };

  const links = new Map(invites.map((invite) => [invite.id, invite.inviteUrl]));
  return (
    <section aria-labelledby="invites-heading">
      <h2 id="invites-heading">Invitations</h2>
      <form className="panel" onSubmit={submit} noValidate>
        <p className="hint">
          An invitation is a link, valid 7 days and usable once, where the person chooses a password. The CMS sends no
          email: copy the link and send it yourself.
        </p>
        <TextField
          label="Email to invite"
          type="email"
          autoComplete="off"
          value={email}
          onChange={(e) => setEmail(e.target.value)}
          error={problems.email}
        />
        <Field id="invite-project" label="Project">
          {(control) => (
            <select {...control} value={project} onChange={(e) => setProject(e.target.value)}>
              <option value="">No project: the role applies to the whole instance</option>
              {bootstrap.projects.map((p) => (
                <option key={p.slug} value={p.slug}>
                  {p.name} ({p.slug})
                </option>
              ))}
            </select>
          )}
        </Field>
        <Field
          id="invite-role"
          label="Role"
          hint={`With a project, the role is granted in that project, every environment. ${ROLE_HELP}`}
        >
          {(control) => <RoleSelect {...control} value={role} onChange={setRole} />}
        </Field>
        <ErrorNotice error={error} title="The invitation was not created." />
        {message ? <Notice kind="success">{message}</Notice> : null}
        <button type="submit" className="primary" disabled={busy}>
          {busy ? 'Sending…' : 'Create invitation'}
        </button>
      </form>
      <h3>Pending invitations</h3>
      <p className="hint">
        Invitations neither accepted nor expired. A link is shown only when its invitation is created (here, those
        created in this browser tab); for a lost link, create a new invitation, which replaces the old one.
      </p>
      <ErrorNotice error={withdrawError ?? pending.error} />
      <Listing items={pending.data} failed={pending.error !== null} empty="No pending invitations.">
        {(list) => (
          <ul className="invite-list">
            {list.map((invite) => {
              const link = links.get(invite.id);
              return (
                <li key={invite.id} className="panel">
                  <strong>{invite.email}</strong>{' '}
                  <span className="muted">
                    {invite.role}
                    {invite.project ? ` in ${invite.project}` : ' (instance)'} · sent {formatTime(invite.createdAt)} ·
                    expires {formatTime(invite.expiresAt)}
                  </span>
                  <div className="actions">
                    {link ? (
                      <>
                        <input
                          readOnly
                          className="mono grow-input"
                          value={link}
                          aria-label={`Invitation link for ${invite.email}`}
                          onFocus={(e) => e.target.select()}
                        />
                        <CopyButton text={link} label="Copy link" confirm="button" />
                      </>
                    ) : null}
                    <button
                      type="button"
                      className="danger"
                      onClick={() => withdraw(invite)}
                      aria-label={`Withdraw the invitation for ${invite.email}`}
                    >
                      Withdraw
                    </button>
                  </div>
                </li>
              );
            })}
          </ul>
        )}
      </Listing>
    </section>
  );
}
