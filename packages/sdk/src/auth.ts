/**
 * `cms.auth`: sign-in for the Studio and the CLI. Login, setup and invite acceptance set the
 * session cookies on the answer (use a session client in the browser); the device flow lets the
 * CLI obtain a key the signed-in user approves in the Studio.
 */
import { callRoute, type In } from './route-call.js';
import type { CallOptions, Transport } from './transport.js';

export function authArea(t: Transport) {
  return {
    login: (body: In<'auth.login', 'body'>, options?: CallOptions) =>
      callRoute(t, 'auth.login', { json: body }, options),
    /** The second sign-in step, when `login` answered `{ mfa }`: its `challengeToken` and a code. */
    loginMfa: (body: In<'auth.login.mfa', 'body'>, options?: CallOptions) =>
      callRoute(t, 'auth.login.mfa', { json: body }, options),
    /** The caller's own second factor (TOTP, recovery codes): `/api/v1/me/mfa/*`. */
    mfa: {
      status: (options?: CallOptions) => callRoute(t, 'me.mfa.get', {}, options),
      enrol: (options?: CallOptions) => callRoute(t, 'me.mfa.enrol', {}, options),
      confirm: (code: string, options?: CallOptions) => callRoute(t, 'me.mfa.confirm', { json: { code } }, options),
      renewRecoveryCodes: (code: string, options?: CallOptions) =>
        callRoute(t, 'me.mfa.recoveryCodes', { json: { code } }, options),
      disable: (body: In<'me.mfa.disable', 'body'>, options?: CallOptions) =>
        callRoute(t, 'me.mfa.disable', { json: body }, options),
    },
    logout: (options?: CallOptions) => callRoute(t, 'auth.logout', {}, options),
    sessions: (options?: CallOptions) => callRoute(t, 'auth.sessions.list', {}, options),
    endSession: (id: string, options?: CallOptions) => callRoute(t, 'auth.sessions.end', { params: { id } }, options),
    /** First-run setup: creates the first admin with the setup token. */
    setup: (body: In<'setup.complete', 'body'>, options?: CallOptions) =>
      callRoute(t, 'setup.complete', { json: body }, options),
    acceptInvite: (body: In<'invites.accept', 'body'>, options?: CallOptions) =>
      callRoute(t, 'invites.accept', { json: body }, options),
    /** Single sign-on providers to offer on the sign-in page. */
    providers: (options?: CallOptions) => callRoute(t, 'auth.providers.list', {}, options),
    sso: {
      /** Starts single sign-on with a provider of `providers()`; send the browser to `redirectUrl`. */
      start: (provider: string, options?: CallOptions) =>
        callRoute(t, 'auth.sso.start', { params: { provider } }, options),
    },
    cli: {
      start: (body: In<'auth.cli.start', 'body'>, options?: CallOptions) =>
        callRoute(t, 'auth.cli.start', { json: body }, options),
      /** What the Studio's authorize page shows before approving. */
      challenge: (id: string, options?: CallOptions) => callRoute(t, 'auth.cli.challenge', { params: { id } }, options),
      authorize: (challengeId: string, options?: CallOptions) =>
        callRoute(t, 'auth.cli.authorize', { json: { challengeId } }, options),
      /** Refuses the sign-in (session); the waiting command line is told on its next poll. */
      deny: (challengeId: string, options?: CallOptions) =>
        callRoute(t, 'auth.cli.deny', { json: { challengeId } }, options),
      /** Where the sign-in stands (`pending`, `authorized`, `exchanged`, `denied`), for the waiting command line. */
      poll: (challengeId: string, options?: CallOptions) =>
        callRoute(t, 'auth.cli.poll', { json: { challengeId } }, options),
      exchange: (body: In<'auth.cli.exchange', 'body'>, options?: CallOptions) =>
        callRoute(t, 'auth.cli.exchange', { json: body }, options),
    },
  };
}
