/** `cms login` (device flow with a loopback callback or a pasted code), `cms logout`, `cms whoami`. */
import { createInterface } from 'node:readline/promises';
import type { Command } from 'commander';
import { isApiError } from '../api/api-error.js';
import { createApi } from '../api/cms-api.js';
import { credentialKey, credentialsFile, deleteKey, loadKey, saveKey } from '../cli/credentials.js';
import { CliError, EXIT } from '../cli/exit-codes.js';
import { startLoopback } from '../cli/loopback.js';
import { openBrowser } from '../cli/open-browser.js';
import { action } from '../cli/run-command.js';

async function pasteCode(signal: AbortSignal): Promise<string> {
  const rl = createInterface({ input: process.stdin, output: process.stderr });
  try {
    return (await rl.question('Or paste the code shown on the authorize page: ', { signal })).trim();
  } finally {
    rl.close();
  }
}

export function registerAuthCommands(program: Command): void {
  program
    .command('login')
    .description('Sign in with the browser (device flow) and store a key for this server, project and environment')
    .option('--no-browser', 'do not open a browser; print the address and ask for the code')
    .option('--code <code>', 'the code from the authorize page (skips waiting)')
    .action(
      action(async (ctx, opts) => {
        const o = opts as { browser: boolean; code?: string };
        const { serverUrl, project, environment } = ctx.target();
        const api = await ctx.api({ needsKey: false });
        const loopback = await startLoopback();
        try {
          const started = await api.auth.start({ project, environment, callbackUrl: loopback.callbackUrl });
          ctx.out.log(`Open this address to authorize the command line:\n\n  ${started.authorizeUrl}\n`);
          if (o.browser && !o.code) {
            const opened = await openBrowser(started.authorizeUrl, ctx.env);
            if (!opened) ctx.out.warn('Could not open a browser; open the address above yourself.');
          }
          let code = o.code;
          if (!code) {
            const abort = new AbortController();
            const expires = new Date(started.expiresAt).getTime() - Date.now();
            const waits: Array<Promise<string | undefined>> = [loopback.code.then((c) => c.code)];
            if (ctx.prompt.interactive) waits.push(pasteCode(abort.signal).catch(() => undefined));
            waits.push(new Promise((done) => setTimeout(() => done(undefined), Math.max(1000, expires)).unref()));
            code = await Promise.race(waits);
            abort.abort();
            if (!code) {
              throw new CliError('LOGIN_EXPIRED', 'The sign-in request expired before it was authorized.', {
                exitCode: EXIT.notSignedIn,
                hint: 'Run `cms login` again.',
              });
            }
          }
          let exchanged: Awaited<ReturnType<typeof api.auth.exchange>>;
          try {
            exchanged = await api.auth.exchange({ challengeId: started.challengeId, code });
          } catch (error) {
            if (isApiError(error)) {
              throw new CliError('LOGIN_FAILED', `The server refused the code: ${error.message}`, {
                exitCode: EXIT.notSignedIn,
                hint: 'An expired request means starting again: run `cms login`. A denied one was refused in the browser.',
              });
            }
            throw error;
          }
          const store = await saveKey(
            credentialKey(serverUrl, project, environment),
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
        } finally {
          loopback.close();
        }
      }),
    );

  program
    .command('logout')
    .description('Revoke the stored key of this server, project and environment on the server, and forget it here')
    .action(
      action(async (ctx) => {
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
          if (isApiError(error) && error.code === 'UNAUTHORIZED') {
            reason = 'already invalid on the server (revoked or expired)';
          } else if (error instanceof CliError || isApiError(error)) {
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
      }),
    );

  program
    .command('whoami')
    .description('Show who the key belongs to, its capabilities, and where each setting came from')
    .action(
      action(async (ctx) => {
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
      }),
    );
}
