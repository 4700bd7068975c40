/**
 * One server-sent-events stream per open document (`GET /content/{documentId}/events`, docs/studio.md
 * "Presence"). While a stream is open the caller is present: the server renews the caller's mark every
 * `PRESENCE_HEARTBEAT_SECONDS` (no client heartbeat) and removes it when the stream closes. Comings and
 * goings are announced on the invalidation bus (`presence:<documentId>`), which is LISTEN/NOTIFY across
 * processes on PostgreSQL and in-process on PGlite, the same bus the published-read cache and the live
 * preview listen on; each stream of the document then re-reads the marks and sends `presence` when the
 * others changed. A mark whose process died is never announced: it lapses after `PRESENCE_TTL_SECONDS`,
 * and every stream re-reads at its own renewal, so it disappears from every screen soon after.
 */
import { PRESENCE_HEARTBEAT_SECONDS, type Presence } from '@cms/core';
import type { EnvironmentContext } from '../../../http/request-context.js';
import type { EventsHub } from '../reads/preview-events.js';
import { assertCanBePresent, type PresenceService } from './presence.service.js';

/** What a document stream sends: the SSE event name and its data (core's DocumentEvents). */
export type DocumentEventSink = (event: 'presence', data: Presence) => void;

/** An open document stream; `stop` leaves the document (once). */
export interface DocumentEventStream {
  stop(): void;
}

export interface DocumentEventsService {
  /**
   * Marks the caller present, sends the first `presence`, and keeps both up to date until `stop`.
   * Calls `end` when the caller left the document (`DELETE /presence`) while the stream was open.
   */
  open(
    ctx: EnvironmentContext,
    input: { documentId: string },
    send: DocumentEventSink,
    end: () => void,
  ): Promise<DocumentEventStream>;
}

/** The part of a presence answer that a screen shows: who, since when. */
function fingerprint(presence: Presence): string {
  return JSON.stringify(presence.editors.map((editor) => [editor.principalId, editor.name, editor.since]));
}

export function createDocumentEventsService(deps: {
  presence: PresenceService;
  /** Comings and goings, by document id (`presence`). */
  hub: EventsHub;
  /** Leaves, by `<document id>:<principal id>` (`presence-left`). */
  leftHub: EventsHub;
  /** How often an open stream renews its mark and re-reads the others (default: the heartbeat). */
  renewMs?: number;
}): DocumentEventsService {
  const renewMs = deps.renewMs ?? PRESENCE_HEARTBEAT_SECONDS * 1000;
  /** Open streams in this process per principal and document: the mark stays until the last one closes. */
  const open = new Map<string, number>();
  /** One stream fewer for `key`; answers how many are still open. */
  const release = (key: string): number => {
    const left = (open.get(key) ?? 1) - 1;
    if (left > 0) open.set(key, left);
    else open.delete(key);
    return left;
  };
  return {
    async open(ctx, input, send, end) {
      assertCanBePresent(ctx.principal);
      const documentId = input.documentId.toLowerCase();
      const who = { documentId };
      const key = `${ctx.target.environmentId}\u0000${documentId}\u0000${ctx.principal.id}`;
      // Counted before the mark is set, so a departure of this person's previous stream still pending
      // sees this one and keeps the mark.
      open.set(key, (open.get(key) ?? 0) + 1);
      let last: Presence;
      try {
        // Throws NOT_FOUND before anything is streamed when the document is not there.
        last = await deps.presence.heartbeat(ctx, who);
      } catch (error) {
        release(key);
        throw error;
      }
      let stopped = false;
      let shown = fingerprint(last);
      send('presence', last);

      const report = (presence: Presence) => {
        last = presence;
        const next = fingerprint(presence);
        if (stopped || next === shown) return;
        shown = next;
        send('presence', presence);
      };
      // Reads run one after another: a burst of announcements reads the marks once per announcement at most.
      let reading: Promise<void> = Promise.resolve();
      const queue = (read: () => Promise<Presence>) => {
        reading = reading
          .then(async () => {
            if (!stopped) report(await read());
          })
          .catch(() => undefined);
      };
      const unwatch = deps.hub.watch(documentId, () => queue(() => deps.presence.others(ctx, who)));
      // A browser may keep an aborted stream's connection open for a while (it drains it); the editor
      // then says it left (DELETE /presence), and this person's streams of the document end instead of
      // renewing the mark (another tab of theirs opens its stream again).
      // (Not on a whole-topic notification, which only says notifications were lost and are back.)
      const unwatchLeft = deps.leftHub.watch(`${documentId}:${ctx.principal.id}`, (key) => {
        if (key !== null && !stopped) end();
      });
      const renewal = setInterval(() => queue(() => deps.presence.heartbeat(ctx, who)), renewMs);
      renewal.unref();

      return {
        stop() {
          if (stopped) return;
          stopped = true;
          clearInterval(renewal);
          unwatch();
          unwatchLeft();
          if (release(key) > 0) return;
          // After a pending renewal, so the departure is the last word; a failure leaves the mark to lapse.
          // Not when a stream of theirs opened meanwhile (a reload): its mark stays. A departure is not a
          // leave (`presence-left`), which would end that new stream.
          reading = reading
            .then(() => (open.has(key) ? undefined : deps.presence.depart(ctx, who)))
            .catch(() => undefined);
        },
      };
    },
  };
}
