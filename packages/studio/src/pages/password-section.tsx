import { useState } from 'react';
import { account, CmsError, fieldMessages } from '../api/index.js';
import { useAuthSubmit } from '../ui/auth-form.js';
import { passwordProblem } from '../ui/new-password-fields.js';
import { ErrorNotice } from '../ui/notice.js';
import { TextField } from '../ui/text-field.js';

const PASSWORDS_DIFFER = 'The two passwords differ.';
const CURRENT_MISSING = 'Enter your current password.';

/**
 * The signed-in person changes their own password (docs/access-control.md "Your own password"): the
 * current one proves it; the server ends their other sessions, this one stays signed in.
 */
export function PasswordSection() {
  const [currentPassword, setCurrentPassword] = useState('');
  const [password, setPassword] = useState('');
  const [confirm, setConfirm] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const [done, setDone] = useState<string | null>(null);
  const { busy, error, submit } = useAuthSubmit();
  const fields = fieldMessages(error instanceof CmsError ? error : null);
  // A refusal naming a field shows beside it; any other shows above the form.
  const formError = (fields['body.currentPassword'] ?? fields['body.password']) ? null : error;

  const send = () => {
    setDone(null);
    const found = currentPassword ? passwordProblem(password, confirm) : CURRENT_MISSING;
    setProblem(found);
    if (found) return;
    void submit(async () => {
      const changed = await account.changePassword(currentPassword, password);
      setCurrentPassword('');
      setPassword('');
      setConfirm('');
      const ended = changed.otherSessionsEnded;
      setDone(
        `Your password is changed.${ended > 0 ? ` ${ended} other ${ended === 1 ? 'session was' : 'sessions were'} signed out.` : ''}`,
      );
      return 'stay';
    });
  };

  return (
    <section aria-labelledby="password-heading">
      <h2 id="password-heading">Password</h2>
      <p>Change the password you sign in with. Your other sessions are signed out; this one stays.</p>
      <ErrorNotice error={formError} />
      <form
        onSubmit={(event) => {
          event.preventDefault();
          send();
        }}
        noValidate
      >
        <TextField
          label="Current password"
          type="password"
          name="current-password"
          autoComplete="current-password"
          required
          value={currentPassword}
          onChange={(e) => setCurrentPassword(e.target.value)}
          error={fields['body.currentPassword'] ?? (problem === CURRENT_MISSING ? problem : null)}
        />
        <TextField
          label="New password"
          type="password"
          name="new-password"
          autoComplete="new-password"
          hint="12 to 256 characters, not a common or breached password."
          required
          value={password}
          onChange={(e) => setPassword(e.target.value)}
          error={
            fields['body.password'] ??
            (problem && problem !== PASSWORDS_DIFFER && problem !== CURRENT_MISSING ? problem : null)
          }
        />
        <TextField
          label="Repeat new password"
          type="password"
          name="repeat-new-password"
          autoComplete="new-password"
          required
          value={confirm}
          onChange={(e) => setConfirm(e.target.value)}
          error={problem === PASSWORDS_DIFFER ? problem : null}
        />
        <button type="submit" className="primary" disabled={busy}>
          {busy ? 'Changing…' : 'Change password'}
        </button>
      </form>
      <div role="status" aria-live="polite">
        {done ? <div className="notice notice-success">{done}</div> : null}
      </div>
    </section>
  );
}
