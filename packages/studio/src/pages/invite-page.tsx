import { type FormEvent, useState } from 'react';
import { auth } from '../api/index.js';
import { navigate, useLocation } from '../router.js';
import { toApiError } from '../state/studio-context.js';
import { AuthCard } from '../ui/auth-card.js';
import { ErrorNotice, Notice } from '../ui/notice.js';
import { TextField } from '../ui/text-field.js';
import { passwordProblem } from './password-rules.js';

/** An invite link: choose a password, and the account is created and signed in. */
export function InvitePage() {
  const { query } = useLocation();
  const token = query.get('token') ?? '';
  const [password, setPassword] = useState('');
  const [confirm, setConfirm] = useState('');
  const [touched, setTouched] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<ReturnType<typeof toApiError> | null>(null);
  const problem = passwordProblem(password, confirm);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setTouched(true);
    if (problem) return;
    setBusy(true);
    setError(null);
    try {
      await auth.acceptInvite(token, password);
      navigate('/', { replace: true });
    } catch (caught) {
      setError(toApiError(caught));
      setBusy(false);
    }
  };

  return (
    <AuthCard title="Accept your invitation">
      {!token ? (
        <Notice kind="warning">
          This page needs the invite link you received (it ends in <code>?token=…</code>).
        </Notice>
      ) : null}
      <ErrorNotice error={error} />
      <form onSubmit={submit} noValidate>
        <TextField
          label="Password"
          type="password"
          autoComplete="new-password"
          hint="12 to 256 characters."
          required
          value={password}
          onChange={(e) => setPassword(e.target.value)}
          error={touched && problem && problem !== 'The two passwords differ.' ? problem : null}
        />
        <TextField
          label="Repeat password"
          type="password"
          autoComplete="new-password"
          required
          value={confirm}
          onChange={(e) => setConfirm(e.target.value)}
          error={touched && problem === 'The two passwords differ.' ? problem : null}
        />
        <button type="submit" className="primary" disabled={busy || !token}>
          {busy ? 'Creating your account…' : 'Create account'}
        </button>
      </form>
    </AuthCard>
  );
}
