import {
  type ActionInput,
  type ActionMethod,
  type ActionResult,
  type ChangeKind,
  CmsError,
  type changesListRoute,
} from '@cms/core';
import type { EnvironmentContext } from '../../../http/request-context.js';
import type { Db } from '../../../storage/db.js';
import { findFeedHead, listChangesAfter } from '../../../storage/repositories/changes.repository.js';
import { previewClaimsOf } from '../reads/preview-tokens.js';
import { assertCanReadDraft } from '../reads/read-rules.js';
import { cursorExpired, decodeChangeCursor, encodeChangeCursor } from './change-cursor.js';
import { numberEnvironmentChanges } from './change-sequencer.js';

type List = typeof changesListRoute;

/** The routes this service answers. */
interface ChangeFeedRoutes {
  list: ActionMethod<List, EnvironmentContext>;
}

/**
 * The change feed (decisions.md §9, docs/api.md "Change feed"): the environment's changes after a
 * cursor, in the order they became visible. Without `draft=true` only changes to the published state
 * (`published`, `unpublished`, `deleted`); with it every change, which needs `content:read:draft`.
 */
export class ChangeFeedService implements ChangeFeedRoutes {
  constructor(private readonly deps: { db: Db }) {}

  async list(ctx: EnvironmentContext, { query }: ActionInput<List>): Promise<ActionResult<List>> {
    const { db } = this.deps;
    const { target } = ctx;
    // A preview token reads its own draft only, never what changed in the environment.
    if (previewClaimsOf(ctx.principal)) {
      throw new CmsError('FORBIDDEN', 'A preview token reads its own draft only, not the change feed.');
    }
    if (query.draft) assertCanReadDraft(ctx);
    let head = await findFeedHead(db, target);
    // Changes committed but not numbered yet: number them now, so a write that has answered is listed.
    if (head.pending) {
      await numberEnvironmentChanges(db, target);
      head = await findFeedHead(db, target);
    }
    const end = encodeChangeCursor(target.environmentId, head.lastPosition);
    let after = head.prunedThrough;
    if (query.since !== undefined) {
      const cursor = decodeChangeCursor(query.since, target.environmentId);
      if (!cursor.sameEnvironment) throw cursorExpired('other-environment', end);
      if (cursor.position < head.prunedThrough) throw cursorExpired('retention', end);
      if (cursor.position > head.lastPosition) throw cursorExpired('ahead', end);
      after = cursor.position;
    }
    // Read up to the head read above, one past the page: whatever is numbered after it waits for the
    // next page, so the cursor handed back never passes a change this answer did not list.
    const rows = await listChangesAfter(db, target, {
      after,
      through: head.lastPosition,
      limit: query.limit + 1,
      published: !query.draft,
    });
    const hasMore = rows.length > query.limit;
    const page = hasMore ? rows.slice(0, query.limit) : rows;
    const last = hasMore ? (page.at(-1)?.position ?? after) : head.lastPosition;
    return {
      items: page.map(({ position: _position, change, ...row }) => ({ ...row, change: change as ChangeKind })),
      nextCursor: encodeChangeCursor(target.environmentId, last),
      hasMore,
    };
  }
}
