/**
 * The Studio's only way to the API: the SDK's session client (same origin: the session cookie, and
 * the CSRF header from `cms_csrf`), with its errors turned into the Studio's ApiError so pages show
 * them one way.
 */
import { type CmsClient, CmsError, CmsNetworkError, createClient } from '@cms/sdk';
import { ApiError, notifyUnauthorized } from './errors.js';

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
 * Runs one SDK call, keeping the SDK's type of its answer (core's wire shapes); its errors become
 * ApiError.
 */
export async function viaSdk<T>(call: () => Promise<T>, options: { public?: boolean } = {}): Promise<T> {
  try {
    return await call();
  } catch (error) {
    if (error instanceof CmsError) {
      const converted = new ApiError({
        code: error.code,
        status: error.status,
        message: error.message,
        details: error.details as Record<string, unknown>,
        requestId: error.requestId,
      });
      if (converted.code === 'UNAUTHORIZED' && !options.public) notifyUnauthorized();
      throw converted;
    }
    if (error instanceof CmsNetworkError) {
      throw new ApiError({
        code: 'NETWORK_ERROR',
        status: 0,
        message: 'The server could not be reached. Check your connection and try again.',
      });
    }
    throw error;
  }
}
