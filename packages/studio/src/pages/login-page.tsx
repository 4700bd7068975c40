import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { type AuthProvider, auth } from '../api/index.js';
import { navigate, useLocation } from '../routing/navigation.js';
import { AuthCard } from '../ui/auth-card.js';
import { AuthForm, useAuthSubmit } from '../ui/auth-form.js';
import { OneTimeCodeForm } from '../ui/one-time-code-form.js';
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
  // Set when the password was right and the account asks for a code (docs/access-control.md "Second factor").
  const [challenge, setChallenge] = useState<string | null>(null);
  const [code, setCode] = useState('');
  const { busy, error, setError, fail, submit } = useAuthSubmit({
    initialError: ssoError
      ? { message: ssoFailureMessage(ssoError, query.get('reason')), code: ssoError, requestId: null }
      : null,
    describe: (apiError) => ({
      message:
        challenge && apiError.code === 'UNAUTHORIZED'
          ? 'The code is not right, or this sign-in expired: try the next code, or start over.'
          : signInMessage(apiError.code, apiError.message),
      code: apiError.code,
      requestId: apiError.requestId,
    }),
  });
  // Without the list (still loading, or refused) the page offers the password form alone.
  const providers = useQuery({ queryKey: ['auth-providers'], queryFn: () => auth.providers() }).data ?? [];

  const sso = async (provider: AuthProvider) => {
    setError(null);
    try {
      const { redirectUrl } = await auth.startSso(provider.slug);
      window.location.assign(redirectUrl);
    } catch (caught) {
      fail(caught);
    }
  };

  if (challenge) {
    return (
      <AuthCard title="Two-factor authentication">
        <p>Enter the code your authenticator app shows, or one of your recovery codes.</p>
        <OneTimeCodeForm
          label="Authentication code"
          name="code"
          inputMode="text"
          value={code}
          onChange={setCode}
          error={error}
          busy={busy}
          submitLabel="Verify"
          busyLabel="Verifying…"
          onSubmit={() =>
            submit(async () => {
              await auth.loginMfa(challenge, code);
              navigate(next, { replace: true });
            })
          }
        />
        <button
          type="button"
          onClick={() => {
            setChallenge(null);
            setCode('');
            setError(null);
          }}
        >
          Start over
        </button>
      </AuthCard>
    );
  }

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
            const result = await auth.login(email, password);
            if ('mfa' in result) {
              setChallenge(result.mfa.challengeToken);
              setPassword('');
              return 'stay';
            }
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
