import type { FastifyRequest } from 'fastify';

/** What a secret query value is replaced with in the request log line. */
export const REDACTED = '[redacted]';

/**
 * The request's URL as a log line shows it. Query values are kept only where the route declares them
 * safe: on an API route, a parameter its query schema declares and its contract does not mark secret
 * (`secretQuery`); on a page route (the Studio), any parameter its config does not mark secret. Every
 * other value (undeclared, secret, or on a request that matched no route) is `[redacted]`, so a token
 * pasted into the wrong place does not reach the log either.
 */
export function urlForLog(request: FastifyRequest): string {
  const url = request.url;
  const mark = url.indexOf('?');
  if (mark < 0) return url;
  const path = url.slice(0, mark);
  if (!request.routeOptions.url) return `${path}?${REDACTED}`;
  const keep = keptQueryNames(request.routeOptions.config as RouteLogConfig);
  const parts = url
    .slice(mark + 1)
    .split('&')
    .map((part) => {
      const equals = part.indexOf('=');
      if (equals < 0) return keep(decodeName(part)) ? part : REDACTED;
      const rawName = part.slice(0, equals);
      return keep(decodeName(rawName)) ? part : `${rawName}=${REDACTED}`;
    });
  return `${path}?${parts.join('&')}`;
}

interface RouteLogConfig {
  action?: { secretQuery?: readonly string[]; request?: { query?: { properties?: Record<string, unknown> } } };
  secretQuery?: readonly string[];
}

function keptQueryNames(config: RouteLogConfig): (name: string) => boolean {
  if (config.action) {
    const declared = config.action.request?.query?.properties ?? {};
    const secret = new Set(config.action.secretQuery ?? []);
    return (name) => Object.hasOwn(declared, name) && !secret.has(name);
  }
  const secret = new Set(config.secretQuery ?? []);
  return (name) => !secret.has(name);
}

function decodeName(raw: string): string {
  try {
    return decodeURIComponent(raw.replace(/\+/g, ' '));
  } catch {
    return raw;
  }
}
