import type { IncomingHttpHeaders } from 'node:http';
import { CmsError } from '@cms/core';
import type { FastifyRequest } from 'fastify';

export const PROJECT_HEADER = 'x-cms-project';
export const ENVIRONMENT_HEADER = 'x-cms-environment';

/** The routing headers as sent, trimmed; empty counts as absent. */
export function readTargetHeaders(request: { headers: IncomingHttpHeaders }): {
  project: string | null;
  environment: string | null;
} {
  return { project: headerValue(request, PROJECT_HEADER), environment: headerValue(request, ENVIRONMENT_HEADER) };
}

function headerValue(request: { headers: IncomingHttpHeaders }, name: string): string | null {
  const raw = request.headers[name];
  const value = Array.isArray(raw) ? raw[0] : raw;
  return value?.trim() || null;
}

/**
 * The routing guard runs before authentication (decisions.md §2 `TARGET_REQUIRED`): a scoped route
 * without its headers is answered 400 whoever calls it.
 */
export function targetGuard(request: FastifyRequest): void {
  const action = request.routeOptions.config.action;
  if (!action || action.target === 'none' || action.target === 'optional') return;
  const { project, environment } = readTargetHeaders(request);
  const missing = [
    ...(project ? [] : ['X-CMS-Project']),
    ...(action.target === 'environment' && !environment ? ['X-CMS-Environment'] : []),
  ];
  if (missing.length > 0) {
    throw new CmsError('TARGET_REQUIRED', `Missing ${missing.join(' and ')} header${missing.length > 1 ? 's' : ''}.`, {
      missing,
    });
  }
}
