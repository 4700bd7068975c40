/**
 * Calls a route by action id: method and path from core's light `routeTable` (the interim table
 * for areas core does not declare yet), path parameters filled and URL-encoded.
 */
import { routeTable } from '@cms/core/route-table';
import { interimRouteTable } from './interim-routes.js';
import type { CallOptions, CallSpec, QueryValue, Transport } from './transport.js';

const table = { ...interimRouteTable, ...routeTable };

/** Every action id the SDK can call. */
export type SdkRouteId = keyof typeof table;

/** The parts of one call besides method and path. */
export interface RouteCallParts {
  params?: Record<string, string | number>;
  query?: object | undefined;
  json?: unknown;
  body?: NonNullable<RequestInit['body']>;
  headers?: Record<string, string | undefined>;
  envelope?: CallSpec['envelope'];
  schemaHash?: boolean;
}

/** Fills `{name}` placeholders, each URL-encoded. */
export function fillPath(path: string, params: Record<string, string | number> = {}): string {
  return path.replace(/\{(\w+)\}/g, (_whole, name: string) => {
    const value = params[name];
    if (value === undefined) throw new TypeError(`Missing path parameter ${name} for ${path}`);
    return encodeURIComponent(String(value));
  });
}

/** The call spec of a route. */
export function routeSpec(id: SdkRouteId, parts: RouteCallParts = {}, options: CallOptions = {}): CallSpec {
  const [method, path] = table[id];
  return {
    method,
    path: fillPath(path, parts.params),
    query: parts.query as Record<string, QueryValue> | undefined,
    headers: { ...parts.headers, ...options.headers },
    json: parts.json,
    ...(parts.body !== undefined ? { body: parts.body } : {}),
    envelope: parts.envelope ?? 'single',
    schemaHash: parts.schemaHash ?? false,
    signal: options.signal,
    timeoutMs: options.timeoutMs,
  };
}

/** Calls a route and returns the envelope's `data` (or the page for paginated routes). */
export function callRoute<T>(
  transport: Transport,
  id: SdkRouteId,
  parts: RouteCallParts = {},
  options: CallOptions = {},
): Promise<T> {
  return transport.call<T>(routeSpec(id, parts, options));
}
