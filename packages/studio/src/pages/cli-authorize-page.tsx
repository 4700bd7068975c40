import { useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { auth, type CliChallenge, CmsError } from '../api/index.js';
import { navigate, useLocation } from '../routing/navigation.js';
import { toApiError } from '../state/studio-context.js';
import { AuthCard } from '../ui/auth-card.js';
import { CopyButton } from '../ui/copy-button.js';
import { ErrorNotice, Loading, Notice } from '../ui/notice.js';

/**
 * The loopback address the command line listens on, with the challenge and the code added, or
 * `error=access_denied` (RFC 8628's name) when the person denied the sign-in.
 */
export function callbackAddress(callbackUrl: string, challengeId: string, answer: { code: string } | 'denied'): string {
  const url = new URL(callbackUrl);
  url.searchParams.set('challengeId', challengeId);
  if (answer === 'denied') url.searchParams.set('error', 'access_denied');
  else url.searchParams.set('code', answer.code);
  return url.toString();
}

type State =
  | { step: 'loading' }
  | { step: 'ask'; challenge: CliChallenge }
  | { step: 'done'; code: string; challenge: CliChallenge }
  | { step: 'sent' }
  | { step: 'denied'; returning: boolean }
  | { step: 'failed'; error: CmsError };

const refusal = (message: string) => new CmsError({ code: 'INVALID_INPUT', status: 400, message });

/** What the page shows before the person answers: the challenge as read, or why it cannot be answered. */
function stateOfChallenge(challengeId: string, read: { data?: CliChallenge; error: unknown }): State {
  if (!challengeId) return { step: 'failed', error: refusal('This address has no challenge: run `cms login` again.') };
  if (read.error) {
    const error = toApiError(read.error);
    // Signed out: the page moves to sign-in (below) and shows "Loading…" until it has.
    return error.code === 'UNAUTHORIZED' ? { step: 'loading' } : { step: 'failed', error };
  }
  if (!read.data) return { step: 'loading' };
  if (read.data.status && read.data.status !== 'pending') {
    return {
      step: 'failed',
      error: refusal('This request was already answered. Run `cms login` again for a new one.'),
    };
  }
  return { step: 'ask', challenge: read.data };
}

/** `/studio/cli/authorize?challenge=`: approve or refuse a command-line sign-in. */
export function CliAuthorizePage() {
  const { path, query } = useLocation();
  const challengeId = query.get('challenge') ?? '';
  const here = `${path}?${query}`;
  // Read once per challenge: an answer here changes it, and the page then shows that answer instead.
  const read = useQuery({
    queryKey: ['cli-challenge', challengeId],
    queryFn: () => auth.cliChallenge(challengeId),
    enabled: challengeId !== '',
    staleTime: Number.POSITIVE_INFINITY,
    gcTime: 0,
  });
  const [answered, setAnswered] = useState<State | null>(null);
  const state = answered ?? stateOfChallenge(challengeId, read);
  const [busy, setBusy] = useState(false);

  const signedOut = read.error instanceof CmsError && read.error.code === 'UNAUTHORIZED';
  useEffect(() => {
    if (signedOut) navigate(`/login?next=${encodeURIComponent(here)}`, { replace: true });
  }, [signedOut, here]);

  const authorize = async (challenge: CliChallenge) => {
    setBusy(true);
    try {
      const answer = await auth.cliAuthorize(challengeId);
      if (challenge.callbackUrl) {
        setAnswered({ step: 'sent' });
        window.location.assign(callbackAddress(challenge.callbackUrl, challengeId, { code: answer.code }));
        return;
      }
      setAnswered({ step: 'done', code: answer.code, challenge });
    } catch (caught) {
      setAnswered({ step: 'failed', error: toApiError(caught) });
    } finally {
      setBusy(false);
    }
  };

  /** Tells the server, so the waiting command stops at once; with a callback, tells the command line too. */
  const deny = async (challenge: CliChallenge) => {
    setBusy(true);
    try {
      await auth.cliDeny(challengeId);
      setAnswered({ step: 'denied', returning: Boolean(challenge.callbackUrl) });
      if (challenge.callbackUrl) window.location.assign(callbackAddress(challenge.callbackUrl, challengeId, 'denied'));
    } catch (caught) {
      setAnswered({ step: 'failed', error: toApiError(caught) });
    } finally {
      setBusy(false);
    }
  };

  return (
    <AuthCard title="Authorize the command line">
      {state.step === 'loading' ? <Loading /> : null}
      {state.step === 'failed' ? <ErrorNotice error={state.error} /> : null}
      {state.step === 'ask' ? (
        <>
          <p>
            A <code>cms</code> command asks to act as you in project <strong>{state.challenge.project}</strong>,
            environment <strong>{state.challenge.environment}</strong>.
          </p>
          <p>Check that your terminal shows this code:</p>
          <p className="code-display">
            <output aria-label="Code from the command line">{state.challenge.userCode}</output>
          </p>
          <p>
            <strong>Authorize only if it is the same code.</strong> If it differs, or you did not run{' '}
            <code>cms login</code> yourself, choose Deny.
          </p>
          <p className="muted">
            It gets a key with your permissions there, valid 90 days. This request expires at{' '}
            <time dateTime={state.challenge.expiresAt}>{new Date(state.challenge.expiresAt).toLocaleTimeString()}</time>
            .
          </p>
          <div className="actions">
            <button type="button" className="primary" disabled={busy} onClick={() => authorize(state.challenge)}>
              Authorize
            </button>
            <button type="button" disabled={busy} onClick={() => deny(state.challenge)}>
              Deny
            </button>
          </div>
        </>
      ) : null}
      {state.step === 'done' ? (
        <>
          <Notice kind="success">Authorized. Paste this code into the command line:</Notice>
          <p className="code-display">
            <output aria-label="One-time code">{state.code}</output>
          </p>
          <CopyButton text={state.code} label="Copy code" confirm="button" />
        </>
      ) : null}
      {state.step === 'sent' ? <Notice kind="success">Authorized. Returning to the command line…</Notice> : null}
      {state.step === 'denied' ? (
        <Notice kind="warning">
          {state.returning
            ? 'Denied. Nothing was granted; telling the command line…'
            : 'Denied. Nothing was granted; the command line stops with an error. You can close this tab.'}
        </Notice>
      ) : null}
    </AuthCard>
  );
}
