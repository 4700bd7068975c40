import { useState } from 'react';
import { auth } from '../api/index.js';
import { navigate, useLocation } from '../router.js';
import { AuthCard } from '../ui/auth-card.js';
import { AuthForm, useAuthSubmit } from '../ui/auth-form.js';
import { NewPasswordFields, passwordProblem } from '../ui/new-password-fields.js';
import { Notice } from '../ui/notice.js';

/** An invite link: choose a password, and the account is created and signed in. */
export function InvitePage() {
  const { query } = useLocation();
  const token = query.get('token') ?? '';
  const [password, setPassword] = useState('');
  const [confirm, setConfirm] = useState('');
  const [touched, setTouched] = useState(false);
  const { busy, error, submit } = useAuthSubmit();

  const send = () => {
    setTouched(true);
    if (passwordProblem(password, confirm)) return;
    void submit(async () => {
      await auth.acceptInvite(token, password);
      navigate('/', { replace: true });
    });
  };

  return (
    <AuthCard title="Accept your invitation">
      {!token ? (
        <Notice kind="warning">
          This page needs the invite link you received (it ends in <code>?token=…</code>).
        </Notice>
      ) : null}
      <AuthForm
        error={error}
        busy={busy}
        disabled={!token}
        submitLabel="Create account"
        busyLabel="Creating your account…"
        onSubmit={send}
      >
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
