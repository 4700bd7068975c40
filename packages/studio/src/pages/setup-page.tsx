import { useState } from 'react';
import { auth } from '../api/index.js';
import { navigate, useLocation } from '../router.js';
import { AuthCard } from '../ui/auth-card.js';
import { AuthForm, useAuthSubmit } from '../ui/auth-form.js';
import { NewPasswordFields, passwordProblem } from '../ui/new-password-fields.js';
import { Notice } from '../ui/notice.js';
import { TextField } from '../ui/text-field.js';

/** First start: the address the server logged creates the first administrator. */
export function SetupPage() {
  const { query } = useLocation();
  const token = query.get('token') ?? '';
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [confirm, setConfirm] = useState('');
  const [touched, setTouched] = useState(false);
  const { busy, error, submit } = useAuthSubmit();

  const send = () => {
    setTouched(true);
    if (passwordProblem(password, confirm) || !email) return;
    void submit(async () => {
      await auth.setup(token, email, password);
      navigate('/', { replace: true });
    });
  };

  return (
    <AuthCard title="Create the first administrator">
      {!token ? (
        <Notice kind="warning">
          This page needs the setup address the server printed at its first start (it ends in <code>?token=…</code>).
        </Notice>
      ) : null}
      <AuthForm
        error={error}
        busy={busy}
        disabled={!token}
        submitLabel="Create administrator"
        busyLabel="Creating…"
        onSubmit={send}
      >
        <TextField
          label="Email"
          type="email"
          autoComplete="username"
          required
          value={email}
          onChange={(e) => setEmail(e.target.value)}
        />
        <NewPasswordFields
          password={password}
          confirm={confirm}
          onPassword={setPassword}
          onConfirm={setConfirm}
          showProblem={touched}
        />
      </AuthForm>
    </AuthCard>
  );
}
