/**
 * The Studio's one error shape: the envelope's code, message, details and requestId, so pages show
 * them as the server said them. An answer saying the session is gone calls the app's handler, which
 * sends the person to sign in.
 */

export class ApiError extends Error {
  readonly code: string;
  readonly status: number;
  readonly details: Record<string, unknown>;
  readonly requestId: string | null;

  constructor(init: {
    code: string;
    status: number;
    message: string;
    details?: Record<string, unknown>;
    requestId?: string | null;
  }) {
    super(init.message);
    this.name = 'ApiError';
    this.code = init.code;
    this.status = init.status;
    this.details = init.details ?? {};
    this.requestId = init.requestId ?? null;
  }
}

/**
 * The server's messages per field of a refused request (`details.fields`, keyed like `body.email`;
 * a leading `/` of a JSON pointer is dropped), to show beside the fields.
 */
export function fieldMessages(error: ApiError | null): Record<string, string> {
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
