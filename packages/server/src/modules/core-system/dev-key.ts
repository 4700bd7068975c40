import { randomUUID } from 'node:crypto';
import { open } from 'node:fs/promises';
import { join } from 'node:path';
import { SCOPES } from '@cms/core';
import type { Db } from '../../storage/db.js';
import { insertApiKey } from '../../storage/repositories/api-keys.repository.js';
import { generateApiKey } from './api-key-secret.js';

/** The label of the key made at first start; listed and revoked like any other key. */
export const DEV_KEY_LABEL = 'development key (made at first start)';

/**
 * At the first start of the embedded default outside production, a key with every scope in every
 * project and environment (an admin's reach), so the README's first requests work by copy and paste,
 * creating other keys included. Its text is shown once (start banner, and the file `dev-key` in the data
 * directory: never in a log line) and only its hash is stored in the database; revoke
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

/** The file in the data directory that holds the development key's text. */
export const DEV_KEY_FILE = 'dev-key';

/**
 * Writes the development key to `<dataDir>/dev-key`, readable by its owner only from the first byte
 * (created with mode 0600, never widened), and returns the file's path for the log line.
 */
export async function writeDevelopmentKeyFile(dataDir: string, apiKey: string): Promise<string> {
  const path = join(dataDir, DEV_KEY_FILE);
  const file = await open(path, 'w', 0o600);
  try {
    await file.chmod(0o600);
    await file.writeFile(`${apiKey}\n`);
  } finally {
    await file.close();
  }
  return path;
}
