import { CmsError } from '@cms/core';
import type { FastifyRequest } from 'fastify';
import type { AuditRecorder } from '../../audit/audit-recorder.js';
import type { Clock } from '../../clock.js';
import type { AuthStrategy } from '../../http/authenticate.js';
import type { Principal } from '../../http/request-context.js';
import type { Queryable } from '../../storage/db.js';
import { type ApiKeyRow, findApiKeyByHash, touchApiKeys } from '../../storage/repositories/api-keys.repository.js';
import { listGrantsOfUser } from '../../storage/repositories/grants.repository.js';
import { findUserById } from '../../storage/repositories/users.repository.js';
import { createInvalidatedCache } from '../../tenancy/invalidated-cache.js';
import type { InvalidationBus } from '../../tenancy/invalidation.js';
import { apiKeyPrincipal } from './api-key-principal.js';
import { hashApiKey, hashesEqual, parseApiKey } from './api-key-secret.js';
import { cliKeyPrincipal } from './cli-key-principal.js';

const CACHE_LIFETIME_MS = 60_000;
const CACHE_MAX_ENTRIES = 10_000;
const TOUCH_INTERVAL_MS = 30_000;

interface CachedKey {
  row: ApiKeyRow;
  principal: Principal;
}

/** The API key strategy plus its background duties (lastUsedAt flush, cache invalidation). */
export interface ApiKeyAuthenticator {
  strategy: AuthStrategy;
  /** Writes pending lastUsedAt stamps; called on an interval and at shutdown. */
  flush(): Promise<void>;
  /**
   * Drops every cached key now: for the process that revoked one, after the revocation commits (the
   * `api-keys` invalidation reaches this process's own cache only when the notification comes back).
   */
  forget(): void;
  start(): void;
  stop(): Promise<void>;
}

/**
 * Authenticates `Authorization: Bearer cms_key_...`. Found keys are cached up to 60 s so a read costs
 * one query, not two; revocation publishes an invalidation so every process drops the key at once.
 */
export function createApiKeyAuthenticator(
  db: Queryable,
  bus: InvalidationBus,
  clock: Clock,
  audit?: AuditRecorder,
): ApiKeyAuthenticator {
  // Found keys only: an unknown key costs a query each time, but cannot fill the cache.
  const cache = createInvalidatedCache<CachedKey | null>({
    bus,
    topic: 'api-keys',
    maxEntries: CACHE_MAX_ENTRIES,
    lifetime: { ms: CACHE_LIFETIME_MS, clock },
    keeps: (entry) => entry !== null,
  });
  const used = new Set<string>();
  let timer: NodeJS.Timeout | null = null;

  const load = (apiKey: string): Promise<CachedKey | null> =>
    cache.fetch(apiKey, async () => {
      const hash = hashApiKey(apiKey);
      const row = await findApiKeyByHash(db, hash);
      if (!row || !hashesEqual(row.secretHash, hash)) return null;
      return { row, principal: apiKeyPrincipal(row) };
    });

  // A CLI key acts for the user who approved it: their role and grants are read at every use, never
  // cached, so a demotion or a disabled account takes effect at once (decisions.md §5).
  const principalOfCliKey = async (row: ApiKeyRow): Promise<Principal> => {
    const user = row.createdBy ? await findUserById(db, row.createdBy) : null;
    if (!user || user.disabledAt) {
      throw new CmsError('UNAUTHORIZED', 'The user who approved this CLI key is disabled or gone: sign in again.');
    }
    return cliKeyPrincipal(row, { role: user.role, grants: await listGrantsOfUser(db, user.id) });
  };

  const flush = async () => {
    if (used.size === 0) return;
    const ids = [...used];
    used.clear();
    // The server's clock, like every other timestamp it writes (clock.ts).
    await touchApiKeys(db, ids, clock());
  };

  /**
   * A revoked or expired key that is still used is a sign-in event of its own (docs/audit.md): written
   * on the instance chain by itself, as no change is made. A failure to write it is logged, never answered.
   */
  const recordRefusedUse = async (request: FastifyRequest, row: ApiKeyRow, reason: 'revoked' | 'expired') => {
    if (!audit) return;
    try {
      await audit.writeAlone({
        action: 'auth.apiKey.refused',
        actor: { type: 'apiKey', id: row.id, label: row.label },
        outcome: 'denied',
        target: { id: row.id },
        requestId: request.ctx.requestId,
        clientRequestId: request.ctx.clientRequestId,
        ip: request.ip ?? null,
        changes: { reason, method: request.method, path: request.url.split('?')[0] ?? '' },
      });
    } catch (error: unknown) {
      request.log.error({ err: error }, 'the audit entry of a refused API key could not be written');
    }
  };

  /** Why a stored key may not be used now, or null when it may. */
  const refusalOf = (row: ApiKeyRow): 'revoked' | 'expired' | null => {
    if (row.revokedAt) return 'revoked';
    return row.expiresAt && row.expiresAt.getTime() <= clock().getTime() ? 'expired' : null;
  };

  const strategy: AuthStrategy = async (request: FastifyRequest) => {
    const parsed = bearerKeyOf(request.headers.authorization);
    if (parsed === null) return null;
    if (parsed === MALFORMED) {
      throw new CmsError('UNAUTHORIZED', 'The API key is malformed: expected cms_key_<kind>_<secret>.');
    }
    const entry = await load(parsed.apiKey);
    if (!entry || entry.row.kind !== parsed.kind) throw new CmsError('UNAUTHORIZED', 'Unknown API key.');
    const refusal = refusalOf(entry.row);
    if (refusal) {
      await recordRefusedUse(request, entry.row, refusal);
      throw new CmsError(
        'UNAUTHORIZED',
        refusal === 'revoked' ? 'This API key was revoked.' : 'This API key has expired: create a new one.',
      );
    }
    used.add(entry.row.id);
    return entry.row.kind === 'cli' ? principalOfCliKey(entry.row) : entry.principal;
  };

  // From memory: a key in the cache that may be used now, and not a CLI key (whose user is read at
  // every use). Anything else takes the strategy above (a query, a refusal, an audit entry).
  strategy.known = (headers) => {
    const parsed = bearerKeyOf(headers.authorization);
    if (parsed === null) return null;
    if (parsed === MALFORMED || parsed.kind === 'cli') return undefined;
    const entry = cache.cached(parsed.apiKey);
    if (!entry || entry.row.kind !== parsed.kind || refusalOf(entry.row)) return undefined;
    used.add(entry.row.id);
    return entry.principal;
  };

  return {
    strategy,
    flush,
    forget: cache.forget,
    start() {
      timer = setInterval(() => {
        flush().catch(() => undefined);
      }, TOUCH_INTERVAL_MS);
      timer.unref();
    },
    async stop() {
      if (timer) clearInterval(timer);
      timer = null;
      await flush();
    },
  };
}

const MALFORMED = 'malformed';

/** The key of an `Authorization: Bearer` header: null without one, MALFORMED when it is not shaped like a key. */
function bearerKeyOf(header: string | undefined): ReturnType<typeof parseApiKey> | typeof MALFORMED | null {
  if (!header?.startsWith('Bearer ')) return null;
  return parseApiKey(header.slice('Bearer '.length).trim()) ?? MALFORMED;
}
