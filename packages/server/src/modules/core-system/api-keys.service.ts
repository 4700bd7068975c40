import { randomUUID } from 'node:crypto';
import {
  ALL_SCOPES,
  type ApiKey,
  CmsError,
  type CreateApiKeyBody,
  type CreatedApiKey,
  invalidInput,
  notFound,
  SCOPES,
  type Scope,
  type Serializable,
} from '@cms/core';
import type { Clock } from '../../clock.js';
import type { RequestContext } from '../../http/request-context.js';
import type { Db } from '../../storage/db.js';
import {
  type ApiKeyRow,
  findApiKeyById,
  insertApiKey,
  listApiKeys,
  revokeApiKey,
} from '../../storage/repositories/api-keys.repository.js';
import type { InvalidationBus } from '../../tenancy/invalidation.js';
import { assertCanIssueKey, keyExcess } from './access-rules.js';
import { generateApiKey } from './api-key-secret.js';

/** A key as answered (core's `ApiKey`): never its secret. */
function toView(row: ApiKeyRow): Serializable<ApiKey> {
  return {
    id: row.id,
    kind: row.kind,
    label: row.label,
    prefix: row.prefix,
    scopes: row.scopes,
    contextAllowlist: row.contextAllowlist,
    expiresAt: row.expiresAt,
    createdAt: row.createdAt,
    createdBy: row.createdBy,
    lastUsedAt: row.lastUsedAt,
    revokedAt: row.revokedAt,
  };
}

/**
 * API keys (`settings:manage`). A caller sees and revokes the keys it could have created: those
 * holding no scope or context it lacks (docs/access-control.md "API keys").
 */
export function createApiKeysService(deps: {
  db: Db;
  bus: InvalidationBus;
  clock: Clock;
  /** Drops this process's cached keys once a revocation has committed (others hear it on the bus). */
  forgetCachedKeys: () => void;
}) {
  const withinReach = (ctx: RequestContext, row: ApiKeyRow) => {
    const excess = keyExcess(ctx.principal, row);
    return excess.scopes.length === 0 && excess.contextAllowlist.length === 0;
  };

  const revokeCommitted = async (id: string) => {
    await deps.db.transaction(async (tx) => {
      await revokeApiKey(tx, id);
      await deps.bus.publish(tx, 'api-keys', id);
    });
    deps.forgetCachedKeys();
  };

  return {
    /** Creates a key; the full key text is in the answer and nowhere else, ever. */
    async create(ctx: RequestContext, input: CreateApiKeyBody): Promise<Serializable<CreatedApiKey>> {
      const expiresAt = input.expiresAt ? new Date(input.expiresAt) : null;
      if (expiresAt && expiresAt.getTime() <= deps.clock().getTime()) {
        throw invalidInput({ 'body.expiresAt': 'must be in the future' });
      }
      const scopes = input.scopes.includes(ALL_SCOPES)
        ? [...SCOPES]
        : [...new Set(input.scopes.filter((scope): scope is Scope => scope !== ALL_SCOPES))];
      assertCanIssueKey(ctx.principal, { scopes, contextAllowlist: input.contextAllowlist });
      const kind = input.kind ?? 'live';
      const { apiKey, prefix, secretHash } = generateApiKey(kind);
      const key = {
        id: randomUUID(),
        kind,
        label: input.label,
        prefix,
        secretHash,
        scopes,
        contextAllowlist: input.contextAllowlist,
        createdBy: ctx.principal.id,
        expiresAt,
      };
      // In a transaction, so the audit entry commits with the key (docs/audit.md).
      const row = await deps.db.transaction((tx) => insertApiKey(tx, key));
      return { ...toView(row), apiKey };
    },

    async list(ctx: RequestContext): Promise<Serializable<ApiKey>[]> {
      const rows = await listApiKeys(deps.db);
      return rows.filter((row) => withinReach(ctx, row)).map(toView);
    },

    /** Revokes a key; every process drops it from its cache when the change commits. */
    async revoke(ctx: RequestContext, id: string): Promise<{ revoked: true; id: string }> {
      const row = await findApiKeyById(deps.db, id);
      if (!row || !withinReach(ctx, row)) throw notFound('API key');
      if (row.revokedAt === null) await revokeCommitted(id);
      return { revoked: true, id };
    },

    /**
     * Revokes the key presenting the request (sign-out of a key: `cms logout`). Any valid key may,
     * whatever its scopes; a session or preview token is not a key and is refused.
     */
    async revokeCurrent(ctx: RequestContext): Promise<{ revoked: true; id: string }> {
      if (ctx.principal.type !== 'apiKey') {
        throw new CmsError(
          'FORBIDDEN',
          'Only an API key can revoke itself: send the key in Authorization. A session signs out with POST /api/v1/auth/logout.',
        );
      }
      await revokeCommitted(ctx.principal.id);
      return { revoked: true, id: ctx.principal.id };
    },
  };
}

/** The API keys service's type, for action factories. */
export type ApiKeysService = ReturnType<typeof createApiKeysService>;
