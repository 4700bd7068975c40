import { randomUUID } from 'node:crypto';
import {
  type AcceptInviteBody,
  type ActionResult,
  type CreateInviteBody,
  invalidInput,
  type invitesCreateRoute,
  type Role,
} from '@cms/core';
import type { Clock } from '../../clock.js';
import type { RequestContext } from '../../http/request-context.js';
import type { Db } from '../../storage/db.js';
import { insertGrants } from '../../storage/repositories/grants.repository.js';
import {
  deletePendingInvitesOfEmail,
  hasValidInvite,
  insertInvite,
  markInviteAcceptedIfValid,
} from '../../storage/repositories/invites.repository.js';
import { findProjectBySlug } from '../../storage/repositories/projects.repository.js';
import { findUserByEmail } from '../../storage/repositories/users.repository.js';
import { assertCanGrantRole } from './access-rules.js';
import { assertPasswordPolicy, hashPassword } from './bounded-password-hashing.js';
import { generateToken, hashToken, isWellFormedToken } from './secret-tokens.js';
import type { IssuedSession, SessionsService, SignInOrigin } from './sessions.service.js';
import { createUserRecord, normalizeEmail } from './user-records.js';

/** An invite can be accepted for 7 days. */
export const INVITE_LIFETIME_MS = 7 * 24 * 60 * 60 * 1000;

/**
 * The instance role of a user who joined through a project invite: the invite's role goes into a
 * grant on that project, and `viewer` here grants nothing by itself (only `admin` does).
 */
const PROJECT_MEMBER_ROLE: Role = 'viewer';

/** `POST /api/v1/invites/accept`: the body and where the sign-in came from. */
type AcceptInvite = AcceptInviteBody & SignInOrigin;

/** Invitations: single-use, 7-day links that create a user and sign them in. */
export function createInvitesService(deps: { db: Db; sessions: SessionsService; clock: Clock; publicUrl: string }) {
  return {
    /** Invites an email; a new invite replaces the pending ones of the same email. */
    async create(ctx: RequestContext, input: CreateInviteBody): Promise<ActionResult<typeof invitesCreateRoute>> {
      const email = normalizeEmail(input.email);
      assertCanGrantRole(ctx.principal, input.role, input.project ?? null);
      const project = input.project === undefined ? null : await findProjectBySlug(deps.db, input.project);
      if (input.project !== undefined && !project) {
        throw invalidInput({ 'body.project': `no project "${input.project}"` });
      }
      if (await findUserByEmail(deps.db, email)) {
        throw invalidInput({ 'body.email': 'is already used by a user' });
      }
      const token = generateToken();
      const now = deps.clock();
      const invite = await deps.db.transaction(async (tx) => {
        await deletePendingInvitesOfEmail(tx, email);
        return insertInvite(tx, {
          id: randomUUID(),
          tokenHash: hashToken(token),
          email,
          role: input.role,
          projectId: project?.id ?? null,
          createdBy: ctx.principal.id,
          expiresAt: new Date(now.getTime() + INVITE_LIFETIME_MS),
          createdAt: now,
        });
      });
      return {
        id: invite.id,
        email: invite.email,
        role: invite.role,
        project: project?.slug ?? null,
        inviteUrl: `${deps.publicUrl}/studio/invite?token=${token}`,
        expiresAt: invite.expiresAt,
      };
    },

    /** Creates the invited user with their password, signs them in, and uses the invite up. */
    async accept(_ctx: RequestContext, input: AcceptInvite): Promise<IssuedSession> {
      assertPasswordPolicy(input.password);
      const rejected = invalidInput({ 'body.token': 'is not a valid invite: it may have expired or been used' });
      if (!isWellFormedToken(input.token)) throw rejected;
      // The token is checked before the password is hashed: a guess costs a lookup, not argon2.
      if (!(await hasValidInvite(deps.db, hashToken(input.token), deps.clock()))) throw rejected;
      const passwordHash = await hashPassword(input.password);
      return deps.db.transaction(async (tx) => {
        const invite = await markInviteAcceptedIfValid(tx, hashToken(input.token), deps.clock());
        if (!invite) throw rejected;
        const role = invite.projectId ? PROJECT_MEMBER_ROLE : invite.role;
        const user = await createUserRecord(
          tx,
          { email: invite.email, role, passwordHash, now: deps.clock() },
          'body.token',
        );
        if (invite.projectId) {
          await insertGrants(tx, user.id, [{ projectId: invite.projectId, environmentId: null, role: invite.role }]);
        }
        return deps.sessions.issue(tx, user, input);
      });
    },
  };
}

/** The invites service's type, for action factories. */
export type InvitesService = ReturnType<typeof createInvitesService>;
