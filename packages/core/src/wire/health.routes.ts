/** Liveness and readiness probes (answered raw, without the envelope). */
import { type Static, Type } from 'typebox';
import { defineRoute } from './define-route.js';

/** Answer of `/healthz` and `/readyz`. */
export const HealthSchema = Type.Object({
  status: Type.String(),
  database: Type.Optional(Type.String()),
});
export type Health = Static<typeof HealthSchema>;

export const healthLiveRoute = defineRoute({
  id: 'health.live',
  kind: 'query',
  method: 'GET',
  path: '/healthz',
  summary: 'Liveness: the process is up',
  target: 'none',
  auth: 'public',
  request: {},
  response: { status: 200, envelope: 'raw', schema: HealthSchema },
});

export const healthReadyRoute = defineRoute({
  id: 'health.ready',
  kind: 'query',
  method: 'GET',
  path: '/readyz',
  summary: 'Readiness: the database answers and the server is not shutting down',
  target: 'none',
  auth: 'public',
  request: {},
  response: { status: 200, envelope: 'raw', schema: HealthSchema },
});
