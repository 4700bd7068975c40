import { type FormEvent, useState } from 'react';
import { auth } from '../api/index.js';
import { navigate, useLocation } from '../router.js';
import { toApiError } from '../state/studio-context.js';
import { AuthCard } from '../ui/auth-card.js';
import { ErrorNotice, Notice } from '../ui/notice.js';
import { TextField } from '../ui/text-field.js';
import { passwordProblem } from './password-rules.js';

/** First start: the address the server logged creates the first administrator. */
export function SetupPage() {
  const { query } = useLocation();
  const token = query.get('token') ?? '';
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [confirm, setConfirm] = useState('');
  const [touched, setTouched] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<ReturnType<typeof toApiError> | null>(null);
  const problem = passwordProblem(password, confirm);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setTouched(true);
    if (problem || !email) return;
    setBusy(true);
    setError(null);
    try {
      await auth.setup(token, email, password);
      navigate('/', { replace: true });
    } catch (caught) {
      setError(toApiError(caught));
      setBusy(false);
    }
  };

  return (
    <AuthCard title="Create the first administrator">
      {!token ? (
        <Notice kind="warning">
          This page needs the setup address the server printed at its first start (it ends in <code>?token=…</code>).
        </Notice>
      ) : null}
      <ErrorNotice error={error} />
      <form onSubmit={submit} noValidate>
        <TextField
          label="Email"
          type="email"
          autoComplete="username"
          required
          value={email}
          onChange={(e) => setEmail(e.target.value)}
        />
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
          {busy ? 'Creating…' : 'Create administrator'}
        </button>
      </form>
    </AuthCard>
  );
}
