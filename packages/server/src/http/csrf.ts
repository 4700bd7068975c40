import { timingSafeEqual } from 'node:crypto';
import { CmsError } from '@cms/core';
import type { FastifyRequest } from 'fastify';

const MUTATING = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
export const CSRF_HEADER = 'x-cms-csrf-token';

/** Session-authenticated mutations must echo the CSRF token (decisions.md §2 `CSRF_INVALID`); API keys need not. */
export function csrfCheck(request: FastifyRequest): void {
  const { principal } = request.ctx;
  if (!principal.viaSession || !MUTATING.has(request.method)) return;
  if (request.routeOptions.config.action?.csrf === false) return;
  const sent = request.headers[CSRF_HEADER];
  if (typeof sent !== 'string' || !principal.csrfToken || !constantTimeEqual(sent, principal.csrfToken)) {
    throw new CmsError('CSRF_INVALID');
  }
}

function constantTimeEqual(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}
