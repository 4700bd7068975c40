/**
 * The Studio's only way to the API: the SDK's session client (same origin: the session cookie, and
 * the CSRF header from `cms_csrf`). Its errors are core's CmsError; "no answer" becomes one too
 * (`NETWORK_ERROR`), so pages show every failure one way.
 */
import { type CmsClient, CmsError, CmsNetworkError, createClient } from '@cms/sdk';
import { notifyUnauthorized } from './errors.js';

export const cms = createClient({ baseUrl: window.location.origin, session: true, retries: 0 });

/** A project and environment the Studio works in. */
export interface Target {
  project: string;
  environment: string;
}

const targeted = new Map<string, CmsClient>();
/** The session client for a target (one per target, kept). */
export function at(target: Partial<Target> | null): CmsClient {
  if (!target?.project && !target?.environment) return cms;
  const key = `${target.project ?? ''}\u0000${target.environment ?? ''}`;
  let client = targeted.get(key);
  if (!client) {
    client = cms.withTarget({
      ...(target.project ? { project: target.project } : {}),
      ...(target.environment ? { environment: target.environment } : {}),
    });
    targeted.set(key, client);
  }
  return client;
}

/**
 * Runs one SDK call, keeping the SDK's type of its answer (core's wire shapes); a session that is
 * gone calls the app's handler, and no answer becomes a CmsError with `NETWORK_ERROR`.
 */
export async function viaSdk<T>(call: () => Promise<T>, options: { public?: boolean } = {}): Promise<T> {
  try {
    return await call();
  } catch (error) {
    if (error instanceof CmsError) {
      if (error.code === 'UNAUTHORIZED' && !options.public) notifyUnauthorized();
      throw error;
    }
    if (error instanceof CmsNetworkError) {
      throw new CmsError({
        code: 'NETWORK_ERROR',
        status: 0,
        message: 'The server could not be reached. Check your connection and try again.',
      });
    }
    throw error;
  }
}
