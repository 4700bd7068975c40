/**
 * The Studio's errors are core's `CmsError` (through the SDK): the envelope's code, message, details
 * and request id, so pages show them as the server said them. An answer saying the session is gone
 * calls the app's handler, which sends the person to sign in.
 */
import { CmsError } from '@cms/sdk';

export { CmsError };

/**
 * The server's messages per field of a refused request (`details.fields`, keyed like `body.email`;
 * a leading `/` of a JSON pointer is dropped), to show beside the fields.
 */
export function fieldMessages(error: CmsError | null): Record<string, string> {
  const fields = error?.details.fields;
  if (!fields || typeof fields !== 'object') return {};
  return Object.fromEntries(
    Object.entries(fields as Record<string, unknown>).map(([key, value]) => [key.replace(/^\/+/, ''), String(value)]),
  );
}

let onUnauthorized: (() => void) | null = null;
export function setUnauthorizedHandler(handler: (() => void) | null): void {
  onUnauthorized = handler;
}
export function notifyUnauthorized(): void {
  onUnauthorized?.();
}

/** Any error as core's `CmsError`: a thrown one as it is, anything else (a network failure, a bug) as `CLIENT_ERROR`. */
export function toApiError(error: unknown): CmsError {
  if (error instanceof CmsError) return error;
  return new CmsError({
    code: 'CLIENT_ERROR',
    status: 0,
    message: error instanceof Error ? error.message : String(error),
  });
}
