/**
 * `cms.auth`: sign-in for the Studio and the CLI. Login, setup and invite acceptance set the
 * session cookies on the answer (use a session client in the browser); the device flow lets the
 * CLI obtain a key the signed-in user approves in the Studio.
 */
import type { AuthProvider, CliChallenge, Session } from './interim-routes.js';
import { callRoute } from './route-call.js';
import type { CallOptions, Transport } from './transport.js';

export function authArea(t: Transport) {
  return {
    login: (body: { email: string; password: string }, options?: CallOptions): Promise<{ session: Session }> =>
      callRoute(t, 'auth.login', { json: body }, options),
    logout: (options?: CallOptions): Promise<{ success: boolean }> => callRoute(t, 'auth.logout', {}, options),
    sessions: (options?: CallOptions): Promise<Session[]> => callRoute(t, 'auth.sessions.list', {}, options),
    endSession: (id: string, options?: CallOptions): Promise<{ deleted: boolean; id: string; current: boolean }> =>
      callRoute(t, 'auth.sessions.end', { params: { id } }, options),
    /** First-run setup: creates the first admin with the setup token. */
    setup: (
      body: { token: string; email: string; password: string },
      options?: CallOptions,
    ): Promise<{ session: Session }> => callRoute(t, 'setup.complete', { json: body }, options),
    acceptInvite: (body: { token: string; password: string }, options?: CallOptions): Promise<{ session: Session }> =>
      callRoute(t, 'invites.accept', { json: body }, options),
    /** Single sign-on providers to offer on the sign-in page. */
    providers: (options?: CallOptions): Promise<AuthProvider[]> => callRoute(t, 'auth.providers', {}, options),
    sso: {
      /** Starts single sign-on with a provider of `providers()`; send the browser to `redirectUrl`. */
      start: (provider: string, options?: CallOptions): Promise<{ redirectUrl: string }> =>
        callRoute(t, 'auth.sso.start', { params: { provider } }, options),
    },
    cli: {
      start: (
        body: { project: string; environment: string; callbackUrl?: string },
        options?: CallOptions,
      ): Promise<{ challengeId: string; authorizeUrl: string; expiresAt: string }> =>
        callRoute(t, 'auth.cli.start', { json: body }, options),
      /** What the Studio's authorize page shows before approving. */
      challenge: (id: string, options?: CallOptions): Promise<CliChallenge> =>
        callRoute(t, 'auth.cli.challenge', { params: { id } }, options),
      authorize: (challengeId: string, options?: CallOptions): Promise<{ success: boolean; code: string }> =>
        callRoute(t, 'auth.cli.authorize', { json: { challengeId } }, options),
      exchange: (
        body: { challengeId: string; code: string },
        options?: CallOptions,
      ): Promise<{ apiKey: string; expiresAt: string }> => callRoute(t, 'auth.cli.exchange', { json: body }, options),
    },
  };
}
