import { auth } from '../api/index.js';
import { navigate, useLocation } from '../routing/navigation.js';
import { AuthCard } from '../ui/auth-card.js';
import { AuthForm, MissingToken, useAuthSubmit } from '../ui/auth-form.js';
import { NewPasswordFields, useNewPassword } from '../ui/new-password-fields.js';

/** An invite link: choose a password, and the account is created and signed in. */
export function InvitePage() {
  const { query } = useLocation();
  const token = query.get('token') ?? '';
  const pair = useNewPassword();
  const { busy, error, submit } = useAuthSubmit();

  const send = () => {
    if (!pair.check()) return;
    void submit(async () => {
      await auth.acceptInvite(token, pair.password);
      navigate('/', { replace: true });
    });
  };

  return (
    <AuthCard title="Accept your invitation">
      {!token ? <MissingToken source="the invite link you received" /> : null}
      <AuthForm
        error={error}
        busy={busy}
        disabled={!token}
        submitLabel="Create account"
        busyLabel="Creating your account…"
        onSubmit={send}
      >
        <NewPasswordFields pair={pair} />
      </AuthForm>
    </AuthCard>
  );
}
