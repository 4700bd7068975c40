import { type FormEvent, useEffect, useState } from 'react';
import { type AuthProvider, auth } from '../api/index.js';
import { navigate, useLocation } from '../router.js';
import { toApiError } from '../state/studio-context.js';
import { AuthCard } from '../ui/auth-card.js';
import { TextField } from '../ui/text-field.js';
import { signInMessage } from './auth-messages.js';

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
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<{ message: string; code: string; requestId: string | null } | null>(
    ssoError ? { message: signInMessage(ssoError), code: ssoError, requestId: null } : null,
  );
  const [providers, setProviders] = useState<AuthProvider[]>([]);

  useEffect(() => {
    auth.providers().then(setProviders, () => setProviders([]));
  }, []);

  const show = (caught: unknown) => {
    const apiError = toApiError(caught);
    setError({
      message: signInMessage(apiError.code, apiError.message),
      code: apiError.code,
      requestId: apiError.requestId,
    });
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    setError(null);
    try {
      await auth.login(email, password);
      navigate(next, { replace: true });
    } catch (caught) {
      show(caught);
      setBusy(false);
    }
  };

  const sso = async (provider: AuthProvider) => {
    setError(null);
    try {
      const { redirectUrl } = await auth.startSso(provider.slug);
      window.location.assign(redirectUrl);
    } catch (caught) {
      show(caught);
    }
  };

  return (
    <AuthCard title="Sign in">
      {error ? (
        <div className="notice notice-error" role="alert">
          {error.message}{' '}
          <small className="notice-meta">
            ({error.code}
            {error.requestId ? `, request ${error.requestId}` : ''})
          </small>
        </div>
      ) : null}
      <form onSubmit={submit} noValidate>
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
        <button type="submit" className="primary" disabled={busy || !email || !password}>
          {busy ? 'Signing in…' : 'Sign in'}
        </button>
      </form>
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
