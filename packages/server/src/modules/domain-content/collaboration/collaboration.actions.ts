import { contentPresenceHeartbeatRoute, contentPresenceLeaveRoute, contentReferrersListRoute } from '@cms/core';
import { type AnyAction, defineAction } from '../../../actions/define-action.js';
import type { PresenceService } from './presence.service.js';
import type { ReferrersService } from './referrers.service.js';

/** Referrers and presence (decisions.md §8 "Studio for writers"); each handler calls one service method. */
export function collaborationActions(referrers: ReferrersService, presence: PresenceService): AnyAction[] {
  return [
    defineAction({
      route: contentReferrersListRoute,
      // Drafts count as referrers, so seeing them needs what reading drafts needs.
      permissions: ['content:read:draft'],
      handler: ({ params, query }, ctx) => referrers.list(ctx, { documentId: params.documentId, ...query }),
    }),
    // Presence marks say who has a document open: a read, renewed while it lasts, not a change, so
    // neither writes an audit entry (docs/audit.md "Not written").
    defineAction({
      route: contentPresenceHeartbeatRoute,
      permissions: ['content:read:draft'],
      audited: false,
      handler: ({ params }, ctx) => presence.heartbeat(ctx, { documentId: params.documentId }),
    }),
    defineAction({
      route: contentPresenceLeaveRoute,
      permissions: ['content:read:draft'],
      audited: false,
      handler: ({ params }, ctx) => presence.leave(ctx, { documentId: params.documentId }),
    }),
  ];
}
