/**
 * The `releases` area (docs/sdk.md "Releases"): a named set of documents published together, now or
 * at a scheduled instant, all or nothing. One method per route, each returning the envelope's `data`.
 */
import type { ReleaseAction, ReleaseStatus } from '@cms/core';
import { iteratePages } from './pagination.js';
import { callRoute, type In } from './route-call.js';
import type { CallOptions, Transport } from './transport.js';

export function releasesArea(t: Transport) {
  const list = (query: { status?: ReleaseStatus; limit?: number; offset?: number } = {}, options?: CallOptions) =>
    callRoute(t, 'releases.list', { query, envelope: 'paginated' }, options);
  return {
    /** Releases of the environment, newest first (without their items; `itemCount` counts them). */
    list,
    iterate: (query: { status?: ReleaseStatus; limit?: number; offset?: number } = {}, options?: CallOptions) =>
      iteratePages((offset) => list({ ...query, offset }, options), query.offset ?? 0),
    /** A release with its items, each flagged `changedSinceAdded` when its draft changed since. */
    get: (id: string, options?: CallOptions) => callRoute(t, 'releases.get', { params: { id } }, options),
    create: (body: In<'releases.create', 'body'>, options?: CallOptions) =>
      callRoute(t, 'releases.create', { json: body }, options),
    /** Adds documents (or changes their action); the answer is the release. */
    addItems: (id: string, items: { documentId: string; action: ReleaseAction }[], options?: CallOptions) =>
      callRoute(t, 'releases.items.add', { params: { id }, json: { items } }, options),
    removeItem: (id: string, documentId: string, options?: CallOptions) =>
      callRoute(t, 'releases.items.remove', { params: { id, documentId } }, options),
    /** Publishes now: `status` is `published`, or `failed` with each bad item's `error` and nothing changed. */
    publish: (id: string, options?: CallOptions) => callRoute(t, 'releases.publish', { params: { id } }, options),
    /** Schedules for an instant (ISO 8601); `timeZone` (IANA) is kept for display. */
    schedule: (id: string, body: In<'releases.schedule', 'body'>, options?: CallOptions) =>
      callRoute(t, 'releases.schedule', { params: { id }, json: body }, options),
    unschedule: (id: string, options?: CallOptions) => callRoute(t, 'releases.unschedule', { params: { id } }, options),
    /** Publishes the inverse of a published release; answers the new release. */
    revert: (id: string, options?: CallOptions) => callRoute(t, 'releases.revert', { params: { id } }, options),
    /** Publishes the environment's due releases once (for hosts that sleep). */
    runDue: (options?: CallOptions) => callRoute(t, 'releases.runDue', {}, options),
  };
}
