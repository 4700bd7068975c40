import { useState } from 'react';
import { auth } from '../api/index.js';
import { navigate, useLocation } from '../routing/navigation.js';
import { AuthCard } from '../ui/auth-card.js';
import { AuthForm, MissingToken, useAuthSubmit } from '../ui/auth-form.js';
import { NewPasswordFields, useNewPassword } from '../ui/new-password-fields.js';
import { TextField } from '../ui/text-field.js';

/** First start: the address the server logged creates the first administrator. */
export function SetupPage() {
  const { query } = useLocation();
  const token = query.get('token') ?? '';
  const [email, setEmail] = useState('');
  const pair = useNewPassword();
  const { busy, error, submit } = useAuthSubmit();

  const send = () => {
    if (!pair.check() || !email) return;
    void submit(async () => {
      await auth.setup(token, email, pair.password);
      navigate('/', { replace: true });
    });
  };

  return (
    <AuthCard title="Create the first administrator">
      {!token ? <MissingToken source="the setup address the server printed at its first start" /> : null}
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
        <NewPasswordFields pair={pair} />
      </AuthForm>
    </AuthCard>
  );
}
