import { CmsError, notFound, PRESENCE_HEARTBEAT_SECONDS, PRESENCE_TTL_SECONDS, type Presence } from '@cms/core';
import type { Clock } from '../../../clock.js';
import type { EnvironmentContext, Principal } from '../../../http/request-context.js';
import { type Queryable, withTransaction } from '../../../storage/db.js';
import {
  listPresentOthers,
  markPresent,
  removePresence,
  sweepLapsedPresence,
} from '../../../storage/repositories/presence.repository.js';
import type { InvalidationBus } from '../../../tenancy/invalidation.js';

/** Presence on documents ("Also editing: <name>"): heartbeat, leave, and who else is there now. */
export interface PresenceService {
  heartbeat(ctx: EnvironmentContext, input: { documentId: string }): Promise<Presence>;
  /** The caller said they left (`DELETE /presence`): the mark goes and their streams of the document end. */
  leave(ctx: EnvironmentContext, input: { documentId: string }): Promise<Presence>;
  /**
   * The caller's last stream of the document closed: the mark goes, announced to the others, but no
   * stream of theirs is ended (one opened since, by a reload or another tab, stays).
   */
  depart(ctx: EnvironmentContext, input: { documentId: string }): Promise<void>;
  /** Everyone but the caller with a live mark on the document now (no mark is set). */
  others(ctx: EnvironmentContext, input: { documentId: string }): Promise<Presence>;
}

/** The name others see: a person's email, a key's label. */
function displayName(principal: Principal): string {
  return principal.email ?? principal.label ?? principal.id;
}

/** Only people and keys edit; a preview token (or nobody) has no presence. */
export function assertCanBePresent(principal: Principal): void {
  if (principal.type !== 'user' && principal.type !== 'apiKey') {
    throw new CmsError('FORBIDDEN', 'Presence is for signed-in people and API keys: sign in to the Studio to edit.');
  }
}

/**
 * Marks live in the database (migration 0057), so every server process sees every mark: a
 * heartbeat renews the caller's mark for `PRESENCE_TTL_SECONDS` and answers the others' live marks.
 * A mark that starts a stay, and a leave, are announced on the bus (`presence:<documentId>`, LISTEN/
 * NOTIFY on PostgreSQL), so every process's open document streams re-read the marks at once; a leave
 * also ends the caller's own streams of the document (`presence-left`); a mark that lapses is not announced: each stream re-reads at its own renewal (collaboration/document-events.service.ts).
 */
export function createPresenceService(deps: { db: Queryable; clock: Clock; bus: InvalidationBus }): PresenceService {
  const { db, clock, bus } = deps;
  const answer = async (ctx: EnvironmentContext, documentId: string, now: Date): Promise<Presence> => {
    const others = await listPresentOthers(db, ctx.target, documentId, ctx.principal.id, now);
    return {
      documentId,
      editors: others.map((row) => ({ ...row, since: row.since.toISOString() })),
      heartbeatSeconds: PRESENCE_HEARTBEAT_SECONDS,
      ttlSeconds: PRESENCE_TTL_SECONDS,
    };
  };
  const removeAndAnnounce = async (ctx: EnvironmentContext, documentId: string) => {
    // Presence writes no audit entry (docs/audit.md "Not written"): one statement, no transaction needed.
    if (await removePresence(db, ctx.target, documentId, ctx.principal.id))
      await bus.publish(db, 'presence', documentId);
  };
  return {
    async heartbeat(ctx, input) {
      assertCanBePresent(ctx.principal);
      const documentId = input.documentId.toLowerCase();
      const now = clock();
      const expiresAt = new Date(now.getTime() + PRESENCE_TTL_SECONDS * 1000);
      // An unknown document is refused inside the transaction, which then leaves no mark.
      const marked = await withTransaction(db, async (tx) => {
        const mark = await markPresent(tx, ctx.target, {
          documentId,
          principalId: ctx.principal.id,
          name: displayName(ctx.principal),
          now,
          expiresAt,
        });
        if (!mark) throw notFound(`Document ${input.documentId}`);
        return mark;
      });
      if (marked.started) await bus.publish(db, 'presence', documentId);
      await sweepLapsedPresence(db, now);
      return answer(ctx, documentId, now);
    },
    async leave(ctx, input) {
      assertCanBePresent(ctx.principal);
      const documentId = input.documentId.toLowerCase();
      await removeAndAnnounce(ctx, documentId);
      // The caller's streams of this document end, wherever they are (docs/api.md "Presence").
      await bus.publish(db, 'presence-left', `${documentId}:${ctx.principal.id}`);
      return answer(ctx, documentId, clock());
    },
    async depart(ctx, input) {
      await removeAndAnnounce(ctx, input.documentId.toLowerCase());
    },
    others(ctx, input) {
      return answer(ctx, input.documentId.toLowerCase(), clock());
    },
  };
}
