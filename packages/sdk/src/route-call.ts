/**
 * Calls a route by action id: method and path from core's light `routeTable` (no schema object
 * reaches the bundle), path parameters filled and URL-encoded; input and output types from core's
 * route contracts (`RouteOf`), so nothing here is typed by hand.
 */
import type { RouteId, RouteInput, RouteOf, RouteOutput } from '@cms/core';
import { routeTable as table } from '@cms/core/route-table';
import type { CallOptions, CallSpec, QueryValue, Transport } from './transport.js';

/** Every action id the SDK can call. */
export type SdkRouteId = keyof typeof table & RouteId;

/** What a route answers: the envelope's `data`, or `{ data, pagination }` for a page. */
export type Out<Id extends RouteId> = RouteOutput<RouteOf<Id>>;

/** One declared request part of a route (`params`, `query`, `headers`, `body`). */
export type In<Id extends RouteId, K extends keyof RouteInput<RouteOf<Id>>> = RouteInput<RouteOf<Id>>[K];

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
    ...(options.next ? { next: options.next } : {}),
    ...(options.cache ? { cache: options.cache } : {}),
  };
}

/**
 * Calls a route and returns the envelope's `data` (or the page for paginated routes), typed by the
 * route's contract; content's typed frontmatter narrows `T` further.
 */
export function callRoute<Id extends SdkRouteId, T = Out<Id>>(
  transport: Transport,
  id: Id,
  parts: RouteCallParts = {},
  options: CallOptions = {},
): Promise<T> {
  return transport.call<T>(routeSpec(id, parts, options));
}
