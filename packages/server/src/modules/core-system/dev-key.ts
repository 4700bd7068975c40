import { randomUUID } from 'node:crypto';
import { SCOPES } from '@cms/core';
import type { Db } from '../../storage/db.js';
import { insertApiKey } from '../../storage/repositories/api-keys.repository.js';
import { generateApiKey } from './api-key-secret.js';

/** The label of the key made at first start; listed and revoked like any other key. */
export const DEV_KEY_LABEL = 'development key (made at first start)';

/**
 * At the first start of the embedded default outside production, a key with every scope in every
 * project and environment (an admin's reach), so the README's first requests work by copy and paste,
 * creating other keys included. Its text is shown once (start banner and log) and never stored; revoke
 * it like any key. Off with CMS_DEV_KEY=false; never made with DATABASE_URL or in production.
 */
export async function createDevelopmentKey(db: Db): Promise<string> {
  const { apiKey, prefix, secretHash } = generateApiKey('live');
  await insertApiKey(db, {
    id: randomUUID(),
    kind: 'live',
    label: DEV_KEY_LABEL,
    prefix,
    secretHash,
    scopes: [...SCOPES],
    contextAllowlist: [{ project: '*', environment: '*' }],
    createdBy: null,
    expiresAt: null,
  });
  return apiKey;
}
