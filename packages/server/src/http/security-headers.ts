import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

/**
 * The server's one declared header policy (docs/operations.md "Security headers"), applied to every
 * answer in one `onSend` hook instead of headers set by hand route by route. A header a route set
 * itself (a media file's sandbox CSP, a published read's Cache-Control) is kept.
 */
export const SECURITY_HEADERS = {
  /** Every answer: browsers take the declared Content-Type at its word. */
  always: { 'x-content-type-options': 'nosniff' },
  /** With an https public address: browsers only ever come back over https (one year). */
  hsts: 'max-age=31536000',
  /** API answers (JSON): nothing in them may load or run, and nobody may frame them. */
  apiCsp: "default-src 'none'; frame-ancestors 'none'",
  /**
   * Studio pages: scripts and styles from the Studio only (CodeMirror adds style elements, so inline
   * styles are allowed), API calls to the same origin, media from anywhere (stored files may live on
   * an S3 address), never framed. Frames may load any http(s) page: the live preview shows the site at
   * the project's `previewUrl`, a setting only admins change and each project has its own, so no fixed
   * list fits (docs/live-preview.md); the Studio posts to that origin only.
   */
  studio: {
    'content-security-policy': [
      "default-src 'self'",
      "script-src 'self'",
      "style-src 'self' 'unsafe-inline'",
      "img-src 'self' data: blob: https: http:",
      "connect-src 'self'",
      "frame-src 'self' http: https:",
      "frame-ancestors 'none'",
      "base-uri 'self'",
      "form-action 'self'",
      "object-src 'none'",
    ].join('; '),
    'referrer-policy': 'same-origin',
    'x-frame-options': 'DENY',
  },
} as const;

/**
 * Action ids (or their prefixes) whose answers name people, sessions or secrets: `Cache-Control:
 * no-store`, so no browser or proxy cache keeps them.
 */
export const NO_STORE_ACTIONS: readonly string[] = [
  'api-keys.',
  'audit.',
  'auth.',
  'users.',
  'me.',
  'invites.',
  'setup.',
  'studio.bootstrap',
  'content.previewTokens.',
  'webhooks.',
  'projects.settings.',
];

/** Is this action's answer one no cache may keep? */
export function isNoStoreAction(actionId: string): boolean {
  return NO_STORE_ACTIONS.some((entry) => (entry.endsWith('.') ? actionId.startsWith(entry) : actionId === entry));
}

/**
 * The policy's headers of a JSON answer of an action outside NO_STORE_ACTIONS, as `applyPolicy` sets
 * them: for answers written before routing (early-reads.ts), which no `onSend` hook sees.
 */
export function jsonAnswerHeaders(options: { publicUrl: string }): Readonly<Record<string, string>> {
  return {
    ...SECURITY_HEADERS.always,
    ...(isHttps(options.publicUrl) ? { 'strict-transport-security': SECURITY_HEADERS.hsts } : {}),
    'content-security-policy': SECURITY_HEADERS.apiCsp,
  };
}

const isHttps = (publicUrl: string) => new URL(publicUrl).protocol === 'https:';

/** Registers the policy; `publicUrl` decides HSTS. */
export function registerSecurityHeaders(app: FastifyInstance, options: { publicUrl: string }): void {
  const https = isHttps(options.publicUrl);
  app.addHook('onSend', (request, reply, payload, done) => {
    applyPolicy(request, reply, https);
    done(null, payload);
  });
}

function applyPolicy(request: FastifyRequest, reply: FastifyReply, https: boolean): void {
  setIfAbsent(reply, 'x-content-type-options', SECURITY_HEADERS.always['x-content-type-options']);
  if (https) setIfAbsent(reply, 'strict-transport-security', SECURITY_HEADERS.hsts);
  const type = String(reply.getHeader('content-type') ?? '');
  const route = request.routeOptions.url ?? '';
  if (route === '/studio' || route.startsWith('/studio/')) {
    if (type.startsWith('text/html')) {
      for (const [name, value] of Object.entries(SECURITY_HEADERS.studio)) setIfAbsent(reply, name, value);
    }
    return;
  }
  if (type.startsWith('application/json')) setIfAbsent(reply, 'content-security-policy', SECURITY_HEADERS.apiCsp);
  const actionId = request.routeOptions.config.action?.id;
  if (actionId && isNoStoreAction(actionId)) reply.header('cache-control', 'no-store');
}

function setIfAbsent(reply: FastifyReply, name: string, value: string): void {
  if (!reply.hasHeader(name)) reply.header(name, value);
}
