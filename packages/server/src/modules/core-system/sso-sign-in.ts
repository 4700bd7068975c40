import { randomUUID } from 'node:crypto';
import type { ErrorCode } from '@cms/core';
import type { FastifyBaseLogger } from 'fastify';
import { noteAuditActor } from '../../audit/audit-scope.js';
import type { Clock } from '../../clock.js';
import type { OidcProviderSettings, SamlProviderSettings } from '../../sso-settings.js';
import type { Db } from '../../storage/db.js';
import { insertGrants } from '../../storage/repositories/grants.repository.js';
import { findProjectBySlug } from '../../storage/repositories/projects.repository.js';
import { isUserLinkedToProvider, linkUserToProvider } from '../../storage/repositories/sso-links.repository.js';
import { findUserByEmail, insertUserIfEmailFree, type UserRow } from '../../storage/repositories/users.repository.js';
import type { IssuedSession, SessionsService, SignInOrigin } from './sessions.service.js';
import { normalizeEmail } from './user-records.js';

/** A configured sign-in provider of either kind. */
export type SsoProvider = OidcProviderSettings | SamlProviderSettings;

/**
 * Why a single sign-on failed. It never becomes an error envelope: the browser is sent to
 * `{CMS_PUBLIC_URL}/studio/login?error=<code>&reason=<reason>` (decisions.md §5), so `code` is one of
 * the catalog's and `reason` a short machine word the sign-in page can explain.
 */
export class SsoFailure extends Error {
  constructor(
    readonly code: ErrorCode,
    readonly reason: string,
    message: string,
  ) {
    super(message);
    this.name = 'SsoFailure';
  }
}

function domainOf(email: string): string {
  return email.slice(email.lastIndexOf('@') + 1);
}

/**
 * Signs in the user a provider vouched for, by verified email: a user this provider created (or
 * linked), an existing user with that email only when the provider sets `matchExistingUsersByEmail`,
 * or a new one with the provider's default role (and a project-wide grant on its `project`). The
 * provider's `allowedEmailDomains`, when set, applies to every sign-in through it.
 */
export function createSsoSignIn(deps: { db: Db; sessions: SessionsService; clock: Clock; log: FastifyBaseLogger }) {
  /** Creates the user (with the grant) in one transaction; a concurrent first sign-in's user is read back. */
  const createUser = async (provider: SsoProvider, email: string): Promise<UserRow> => {
    let missingProject: string | null = null;
    const created = await deps.db.transaction(async (tx) => {
      const user = await insertUserIfEmailFree(tx, {
        id: randomUUID(),
        email,
        role: provider.defaultRole,
        passwordHash: null,
        now: deps.clock(),
      });
      if (user) {
        await linkUserToProvider(tx, user.id, provider.slug, deps.clock());
        // This transaction carries the sign-in's audit entry: it names the user it creates.
        noteAuditActor({ type: 'user', id: user.id, label: user.email });
      }
      if (!user || !provider.project) return user;
      const project = await findProjectBySlug(tx, provider.project);
      if (project) {
        await insertGrants(tx, user.id, [{ projectId: project.id, environmentId: null, role: provider.defaultRole }]);
      } else {
        missingProject = provider.project;
      }
      return user;
    });
    if (missingProject) {
      deps.log.warn(
        { provider: provider.slug, project: missingProject },
        'a user created by single sign-on got no grant: the provider names a project that does not exist',
      );
    }
    const user = created ?? (await findUserByEmail(deps.db, email));
    if (!user) throw new Error('a user created by a concurrent sign-in could not be read back');
    return user;
  };

  return {
    async signIn(provider: SsoProvider, rawEmail: string, origin: SignInOrigin): Promise<IssuedSession> {
      const email = normalizeEmail(rawEmail);
      noteAuditActor({ type: 'anonymous', id: 'anonymous', label: email });
      if (!/^[^@\s]+@[^@\s]+$/.test(email)) {
        throw new SsoFailure('FORBIDDEN', 'email_missing', 'The identity provider sent no usable email address.');
      }
      if (provider.allowedEmailDomains && !provider.allowedEmailDomains.includes(domainOf(email))) {
        throw new SsoFailure(
          'FORBIDDEN',
          'email_domain_not_allowed',
          `Sign-in through ${provider.label} is limited to ${provider.allowedEmailDomains.join(', ')} addresses.`,
        );
      }
      const existing = await findUserByEmail(deps.db, email);
      const user = existing ?? (await createUser(provider, email));
      if (!(await isUserLinkedToProvider(deps.db, user.id, provider.slug))) {
        if (!provider.matchExistingUsersByEmail) {
          throw new SsoFailure(
            'FORBIDDEN',
            'account_not_linked',
            `An account with this email exists, and ${provider.label} may not sign in to existing accounts: sign in with your password.`,
          );
        }
        await linkUserToProvider(deps.db, user.id, provider.slug, deps.clock());
      }
      if (user.disabledAt) {
        throw new SsoFailure('FORBIDDEN', 'account_disabled', 'This account is disabled: ask an administrator.');
      }
      noteAuditActor({ type: 'user', id: user.id, label: user.email });
      // The session commits with the audit entry (unless creating the user above already wrote it).
      return deps.db.transaction((tx) => deps.sessions.issue(tx, user, origin));
    },
  };
}

/** The SSO sign-in's type, for the OIDC and SAML services. */
export type SsoSignIn = ReturnType<typeof createSsoSignIn>;
