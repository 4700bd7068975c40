import type { Queryable } from '../db.js';

/** The project and environment every webhook statement is confined to. */
export interface WebhookScope {
  projectId: string;
  environmentId: string;
}

/** A webhook row; `secretCiphertext` is the sealed secret (never leaves the service layer). */
export interface WebhookRow {
  id: string;
  projectId: string;
  environmentId: string;
  url: string;
  events: string[];
  active: boolean;
  secretCiphertext: string;
  createdBy: string;
  updatedBy: string;
  createdAt: Date;
  updatedAt: Date;
}

/** Changes of an update; absent fields keep their value. */
export interface WebhookPatch {
  url?: string;
  events?: string[];
  active?: boolean;
  secretCiphertext?: string;
  updatedBy: string;
}

const COLUMNS = `id, project_id as "projectId", environment_id as "environmentId", url, events, active,
  secret_ciphertext as "secretCiphertext", created_by as "createdBy", updated_by as "updatedBy",
  created_at as "createdAt", updated_at as "updatedAt"`;

/** Inserts a webhook, active since now when active. */
export async function insertWebhook(
  db: Queryable,
  row: Omit<WebhookRow, 'createdAt' | 'updatedAt' | 'updatedBy'>,
): Promise<WebhookRow> {
  const result = await db.query<WebhookRow>(
    `insert into webhooks (id, project_id, environment_id, url, events, active, secret_ciphertext, created_by, updated_by)
     values ($1, $2, $3, $4, $5, $6, $7, $8, $8) returning ${COLUMNS}`,
    [row.id, row.projectId, row.environmentId, row.url, row.events, row.active, row.secretCiphertext, row.createdBy],
  );
  return result.rows[0] as WebhookRow;
}

/**
 * Finds a webhook of the scope that is not deleted, or null. `forShare` locks it until the
 * transaction ends, so it cannot be deactivated or deleted meanwhile.
 */
export async function findWebhook(
  db: Queryable,
  scope: WebhookScope,
  id: string,
  options: { forShare?: boolean } = {},
): Promise<WebhookRow | null> {
  const result = await db.query<WebhookRow>(
    `select ${COLUMNS} from webhooks
     where id = $1 and project_id = $2 and environment_id = $3 and deleted_at is null${options.forShare ? ' for share' : ''}`,
    [id, scope.projectId, scope.environmentId],
  );
  return result.rows[0] ?? null;
}

/** Lists the webhooks of the scope that are not deleted, oldest first. */
export async function listWebhooks(db: Queryable, scope: WebhookScope): Promise<WebhookRow[]> {
  const result = await db.query<WebhookRow>(
    `select ${COLUMNS} from webhooks
     where project_id = $1 and environment_id = $2 and deleted_at is null order by created_at, id`,
    [scope.projectId, scope.environmentId],
  );
  return result.rows;
}

/**
 * Applies a patch; a webhook turning active gets `active_since = now()`, so events that occurred
 * while it was inactive are never queued for it. Returns null when no live webhook has this id.
 */
export async function updateWebhook(
  db: Queryable,
  scope: WebhookScope,
  id: string,
  patch: WebhookPatch,
): Promise<WebhookRow | null> {
  const result = await db.query<WebhookRow>(
    `update webhooks set
       url = coalesce($4, url),
       events = coalesce($5, events),
       active_since = case when $6::boolean and not active then now() else active_since end,
       active = coalesce($6, active),
       secret_ciphertext = coalesce($7, secret_ciphertext),
       updated_by = $8,
       updated_at = now()
     where id = $1 and project_id = $2 and environment_id = $3 and deleted_at is null
     returning ${COLUMNS}`,
    [
      id,
      scope.projectId,
      scope.environmentId,
      patch.url ?? null,
      patch.events ?? null,
      patch.active ?? null,
      patch.secretCiphertext ?? null,
      patch.updatedBy,
    ],
  );
  return result.rows[0] ?? null;
}

/**
 * Marks a webhook deleted and wipes its secret; the row stays so its deliveries stay in the log.
 * Returns false when no live webhook has this id.
 */
export async function markWebhookDeleted(
  db: Queryable,
  scope: WebhookScope,
  id: string,
  deletedBy: string,
): Promise<boolean> {
  const result = await db.query(
    `update webhooks set deleted_at = now(), active = false, secret_ciphertext = null, updated_by = $4, updated_at = now()
     where id = $1 and project_id = $2 and environment_id = $3 and deleted_at is null`,
    [id, scope.projectId, scope.environmentId, deletedBy],
  );
  return result.rowCount > 0;
}
