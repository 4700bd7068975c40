import { useEffect, useState } from 'react';
import { type AuthProvider, auth } from '../api/index.js';
import { navigate, useLocation } from '../router.js';
import { AuthCard } from '../ui/auth-card.js';
import { AuthForm, useAuthSubmit } from '../ui/auth-form.js';
import { TextField } from '../ui/text-field.js';
import { signInMessage, ssoFailureMessage } from './auth-messages.js';

/** Where to go after signing in: only a Studio path, never another site. */
export function safeNext(next: string | null): string {
  return next?.startsWith('/') && !next.startsWith('//') ? next : '/';
}

export function LoginPage() {
  const { query } = useLocation();
  const next = safeNext(query.get('next'));
  const ssoError = query.get('error');
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const { busy, error, setError, fail, submit } = useAuthSubmit({
    initialError: ssoError
      ? { message: ssoFailureMessage(ssoError, query.get('reason')), code: ssoError, requestId: null }
      : null,
    describe: (apiError) => ({
      message: signInMessage(apiError.code, apiError.message),
      code: apiError.code,
      requestId: apiError.requestId,
    }),
  });
  const [providers, setProviders] = useState<AuthProvider[]>([]);

  useEffect(() => {
    auth.providers().then(setProviders, () => setProviders([]));
  }, []);

  const sso = async (provider: AuthProvider) => {
    setError(null);
    try {
      const { redirectUrl } = await auth.startSso(provider.slug);
      window.location.assign(redirectUrl);
    } catch (caught) {
      fail(caught);
    }
  };

  return (
    <AuthCard title="Sign in">
      <AuthForm
        error={error}
        busy={busy}
        disabled={!email || !password}
        submitLabel="Sign in"
        busyLabel="Signing in…"
        onSubmit={() =>
          submit(async () => {
            await auth.login(email, password);
            navigate(next, { replace: true });
          })
        }
      >
        <TextField
          label="Email"
          type="email"
          name="email"
          autoComplete="username"
          required
          value={email}
          onChange={(e) => setEmail(e.target.value)}
        />
        <TextField
          label="Password"
          type="password"
          name="password"
          autoComplete="current-password"
          required
          value={password}
          onChange={(e) => setPassword(e.target.value)}
        />
      </AuthForm>
      {providers.length > 0 ? (
        <div className="sso">
          <p className="divider">or</p>
          {providers.map((provider) => (
            <button key={provider.slug} type="button" onClick={() => sso(provider)}>
              Sign in with {provider.label}
            </button>
          ))}
        </div>
      ) : null}
    </AuthCard>
  );
}
