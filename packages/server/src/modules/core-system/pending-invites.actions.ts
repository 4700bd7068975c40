import { invitesListRoute, invitesWithdrawRoute, notFound } from '@cms/core';
import { defineAction } from '../../actions/define-action.js';
import type { Clock } from '../../clock.js';
import type { Principal } from '../../http/request-context.js';
import type { Db } from '../../storage/db.js';
import {
  deletePendingInvite,
  findPendingInvite,
  listPendingInvites,
  type PendingInviteRow,
} from '../../storage/repositories/pending-invites.repository.js';
import { canGrantRole } from './access-rules.js';

/** A caller sees and withdraws only the invites it could have sent (docs/access-control.md "No escalation"). */
const withinReach = (principal: Principal, row: PendingInviteRow) =>
  canGrantRole(principal, row.role, row.projectSlug, '*');

const toView = (row: PendingInviteRow) => ({
  id: row.id,
  email: row.email,
  role: row.role,
  project: row.projectSlug,
  createdBy: row.createdBy,
  createdAt: row.createdAt,
  expiresAt: row.expiresAt,
});

/** Pending invites: list them (never their links) and withdraw one (`users:manage`). */
export function pendingInviteActions(deps: { db: Db; clock: Clock }) {
  return [
    defineAction({
      route: invitesListRoute,
      permissions: ['users:manage'],
      handler: async (_input, ctx) => {
        const rows = await listPendingInvites(deps.db, deps.clock());
        return rows.filter((row) => withinReach(ctx.principal, row)).map(toView);
      },
    }),
    defineAction({
      route: invitesWithdrawRoute,
      permissions: ['users:manage'],
      handler: async ({ params }, ctx) => {
        const row = await findPendingInvite(deps.db, params.id, deps.clock());
        if (!row || !withinReach(ctx.principal, row)) throw notFound('Invite');
        // The withdrawal and its audit entry commit together (docs/audit.md).
        await deps.db.transaction(async (tx) => {
          if (!(await deletePendingInvite(tx, row.id))) throw notFound('Invite');
        });
        return { withdrawn: true, id: row.id };
      },
    }),
  ];
}
