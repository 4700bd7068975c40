/** `cms login` (device flow with a loopback callback or a pasted code), `cms logout`, `cms whoami`. */
import { isCmsError } from '@cms/sdk';
import { type CmsApi, createApi } from '../api/cms-api.js';
import type { Context } from '../cli/context.js';
import { credentialKey, credentialsFile, deleteKey, loadKey, saveKey } from '../cli/credentials.js';
import { CliError, EXIT } from '../cli/exit-codes.js';
import { startLoopback } from '../cli/loopback.js';
import { openBrowser } from '../cli/open-browser.js';
import { forgetPendingLogin, loadPendingLogin, savePendingLogin } from '../cli/pending-login.js';
import { question } from '../cli/prompt.js';
import type { CommandResult } from '../cli/run-command.js';

const clock = (iso: string) => new Date(iso).toLocaleTimeString([], { hour: '2-digit', minute: '2-digit' });

/** How often a waiting `cms login` asks the server whether its sign-in was denied. */
const POLL_INTERVAL_MS = 2000;

/** The user pressed Deny on the authorize page: nothing was granted, the command stops at once. */
function loginDenied(): CliError {
  return new CliError('LOGIN_DENIED', 'The sign-in was denied in the browser: nothing was granted.', {
    exitCode: EXIT.notSignedIn,
    hint: 'Run `cms login` again if you meant to sign in, and authorize only when the page shows the code this command printed.',
  });
}

function loginExpired(): CliError {
  return new CliError('LOGIN_EXPIRED', 'The sign-in request expired before it was authorized.', {
    exitCode: EXIT.notSignedIn,
    hint: 'Run `cms login` again.',
  });
}

/** What ends the wait: the code (from the browser or pasted), a denial, or the challenge's end. */
type WaitOutcome = { code: string } | { denied: true } | { expired: true };

/**
 * Asks the server every POLL_INTERVAL_MS where the challenge stands, until `signal` aborts; resolves
 * when it was denied or is over. Unreachable server or other errors: keeps asking (the other waits go on).
 */
async function watchChallenge(api: CmsApi, challengeId: string, signal: AbortSignal): Promise<WaitOutcome | undefined> {
  while (!signal.aborted) {
    await new Promise<void>((done) => {
      const timer = setTimeout(done, POLL_INTERVAL_MS);
      timer.unref();
      signal.addEventListener(
        'abort',
        () => {
          clearTimeout(timer);
          done();
        },
        { once: true },
      );
    });
    if (signal.aborted) return undefined;
    try {
      const { status } = await api.auth.poll(challengeId, { signal });
      if (status === 'denied') return { denied: true };
    } catch (error) {
      if (isCmsError(error) && (error.code === 'FORBIDDEN' || error.code === 'NOT_FOUND')) return { expired: true };
    }
  }
  return undefined;
}

/**
 * The code of a new challenge: from the browser sent back to the loopback listener, or pasted (the
 * authorize page shows it when there is no callback, with --no-browser). Undefined when this run
 * cannot receive it: `cms login --code` finishes the sign-in later. A denial on the authorize page
 * (sent back to the loopback listener, or seen by polling the server) stops it at once.
 */
async function waitForCode(
  ctx: Context,
  api: CmsApi,
  account: string,
  target: { project: string; environment: string },
  openAddress: boolean,
): Promise<
  { challengeId: string; code: string } | { pending: { authorizeUrl: string; userCode: string; expiresAt: string } }
> {
  // Without a browser on this machine (SSH, WSL) the browser cannot come back to a loopback address:
  // the page then shows the code instead.
  const loopback = openAddress ? await startLoopback() : undefined;
  try {
    const started = await api.auth.start({ ...target, ...(loopback ? { callbackUrl: loopback.callbackUrl } : {}) });
    ctx.out.log(`Open this address in a browser where you are signed in to the Studio:\n\n  ${started.authorizeUrl}\n`);
    ctx.out.log(`The page must show the code ${started.userCode}. Authorize only if it does; otherwise choose Deny.\n`);
    if (!loopback)
      await savePendingLogin(account, { challengeId: started.challengeId, expiresAt: started.expiresAt }, ctx.env);
    if (loopback && !(await openBrowser(started.authorizeUrl, ctx.env))) {
      ctx.out.warn('Could not open a browser; open the address above yourself.');
    }
    if (!loopback && !ctx.prompt.interactive) {
      ctx.out.log(
        `Authorize there, then run \`cms login --code <code>\` with the code the page shows (before ${clock(started.expiresAt)}).`,
      );
      return {
        pending: { authorizeUrl: started.authorizeUrl, userCode: started.userCode, expiresAt: started.expiresAt },
      };
    }
    const abort = new AbortController();
    const waits: Array<Promise<WaitOutcome | undefined>> = [];
    if (loopback) waits.push(loopback.code.then((c) => ('denied' in c ? { denied: true } : { code: c.code })));
    if (ctx.prompt.interactive) {
      const text = loopback
        ? 'Waiting for the browser. If it cannot come back here, paste the code from its address bar (code=…): '
        : 'Paste the code the page shows: ';
      // Our own abort (the browser came back first) ends the question quietly; Ctrl-C interrupts.
      waits.push(
        question(text, abort.signal).then(
          (answer) => ({ code: answer.trim() }),
          (error: unknown) => {
            if (abort.signal.aborted) return undefined;
            throw error;
          },
        ),
      );
    } else {
      ctx.out.log(`Waiting for the browser until ${clock(started.expiresAt)} (Ctrl-C stops).`);
    }
    // A denial reaches this run even when the browser cannot come back to the loopback address.
    waits.push(watchChallenge(api, started.challengeId, abort.signal));
    const expires = new Date(started.expiresAt).getTime() - Date.now();
    waits.push(new Promise((done) => setTimeout(() => done({ expired: true }), Math.max(1000, expires)).unref()));
    const outcome = await Promise.race(waits);
    abort.abort();
    if (outcome && 'denied' in outcome) throw loginDenied();
    if (!outcome || !('code' in outcome) || !outcome.code) throw loginExpired();
    return { challengeId: started.challengeId, code: outcome.code };
  } finally {
    loopback?.close();
  }
}

/** `cms login`. */
export async function login(ctx: Context, opts: { browser: boolean; code?: string }): Promise<CommandResult> {
  const o = opts as { browser: boolean; code?: string };
  const { serverUrl, project, environment } = ctx.target();
  const api = await ctx.api({ needsKey: false });
  const account = credentialKey(serverUrl, project, environment);
  let answer: { challengeId: string; code: string };
  if (o.code) {
    const { pending, expired } = await loadPendingLogin(account, ctx.env);
    if (!pending) {
      throw new CliError(
        'LOGIN_NOT_STARTED',
        expired
          ? 'The sign-in waiting for this code expired.'
          : `No sign-in to ${project}/${environment} at ${serverUrl} is waiting for a code.`,
        {
          exitCode: EXIT.notSignedIn,
          hint: 'Run `cms login --no-browser`, authorize in the browser, then `cms login --code <code>` with the code the page shows.',
        },
      );
    }
    answer = { challengeId: pending.challengeId, code: o.code };
  } else {
    const waited = await waitForCode(ctx, api, account, { project, environment }, o.browser);
    if ('pending' in waited) return { data: { signedIn: false, ...waited } };
    answer = waited;
  }
  let exchanged: Awaited<ReturnType<typeof api.auth.exchange>>;
  try {
    exchanged = await api.auth.exchange(answer);
  } catch (error) {
    if (isCmsError(error) && error.details.reason === 'access_denied') {
      await forgetPendingLogin(account, ctx.env);
      throw loginDenied();
    }
    if (isCmsError(error)) {
      // A wrong code may be tried again (the message says how many tries are left); anything
      // else (expired, too many tries, refused) means starting over.
      if (error.code !== 'INVALID_INPUT') await forgetPendingLogin(account, ctx.env);
      throw new CliError('LOGIN_FAILED', `The server refused the code: ${error.message}`, {
        exitCode: EXIT.notSignedIn,
        hint:
          error.code === 'INVALID_INPUT'
            ? 'Check the code on the authorize page and run `cms login --code <code>` again.'
            : 'Start again with `cms login` (or `cms login --no-browser`).',
      });
    }
    throw error;
  }
  await forgetPendingLogin(account, ctx.env);
  const store = await saveKey(
    account,
    {
      apiKey: exchanged.apiKey,
      expiresAt: exchanged.expiresAt ?? null,
      keyId: exchanged.keyId,
      savedAt: new Date().toISOString(),
    },
    ctx.env,
  );
  if (store === 'file')
    ctx.out.warn(`No OS keychain is available: the key is stored in ${credentialsFile(ctx.env)} (mode 0600).`);
  ctx.out.log(`Signed in to ${project}/${environment} at ${serverUrl}.`);
  return {
    data: { signedIn: true, serverUrl, project, environment, store, expiresAt: exchanged.expiresAt ?? null },
  };
}

/** `cms logout`. */
export async function logout(ctx: Context): Promise<CommandResult> {
  const { serverUrl, project, environment } = ctx.target();
  const account = credentialKey(serverUrl, project, environment);
  const stored = await loadKey(account, ctx.env);
  if (!stored) {
    ctx.out.log('No stored key for this server, project and environment.');
    return { data: { signedOut: false, revoked: false } };
  }
  // The stored key revokes itself (DELETE /api/v1/api-keys/current), whatever --api-key or
  // CMS_API_KEY say: logout is about the key this machine keeps. It is forgotten here in any case.
  let revoked = false;
  let reason: string | null = null;
  try {
    const api = createApi({
      serverUrl,
      apiKey: stored.apiKey,
      project,
      environment,
      retries: 1,
      timeoutMs: 10_000,
    });
    await api.revokeCurrentKey();
    revoked = true;
  } catch (error) {
    if (isCmsError(error) && error.code === 'UNAUTHORIZED') {
      reason = 'already invalid on the server (revoked or expired)';
    } else if (error instanceof CliError || isCmsError(error)) {
      reason = error.message;
      ctx.out.warn(
        `Could not revoke the key on the server (${error.message}): it is forgotten on this machine but stays valid until it expires or an admin revokes it (kind "cli" in GET /api/v1/api-keys).`,
      );
    } else {
      throw error;
    }
  }
  await deleteKey(account, ctx.env);
  ctx.out.log(revoked ? 'Key revoked on the server. Signed out.' : 'Signed out.');
  return { data: { signedOut: true, revoked, ...(reason ? { reason } : {}) } };
}

/** `cms whoami`. */
export async function whoami(ctx: Context): Promise<CommandResult> {
  const { serverUrl, project, environment } = ctx.target();
  const api = await ctx.api();
  const me = await api.me();
  const who = me.principalType === 'user' ? `${me.email} (${me.role})` : `API key "${me.label}"`;
  ctx.out.line(`${who} on ${project}/${environment} at ${serverUrl}`);
  ctx.out.line(`key from: ${ctx.settings.sources.apiKey}`);
  const caps = Object.entries((me.capabilities as Record<string, boolean>) ?? {})
    .filter(([, v]) => v)
    .map(([k]) => k);
  ctx.out.line(`can: ${caps.join(', ') || 'nothing'}`);
  return { data: { principal: me, serverUrl, project, environment, sources: ctx.settings.sources } };
}
