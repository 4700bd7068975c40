/**
 * The sign-in a `cms login --no-browser` left waiting for its code, per server, project and
 * environment, so that `cms login --code <code>` (a later run, maybe another shell) can finish it:
 * the code the authorize page shows belongs to that challenge. Kept beside the credentials file
 * (mode 0600); the challenge id alone grants nothing.
 */
import { readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { credentialsFile, writePrivateFile } from './credentials.js';

export interface PendingLogin {
  challengeId: string;
  expiresAt: string;
}

function pendingFile(env: NodeJS.ProcessEnv): string {
  return join(dirname(credentialsFile(env)), 'pending-logins.json');
}

async function readAll(env: NodeJS.ProcessEnv): Promise<Record<string, PendingLogin>> {
  try {
    return JSON.parse(await readFile(pendingFile(env), 'utf8'));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return {};
    throw error;
  }
}

async function writeAll(env: NodeJS.ProcessEnv, all: Record<string, PendingLogin>): Promise<void> {
  // Like the credentials file: 0600 from the first byte, and the folder it may create 0700.
  await writePrivateFile(pendingFile(env), `${JSON.stringify(all, null, 2)}\n`);
}

export async function savePendingLogin(account: string, pending: PendingLogin, env: NodeJS.ProcessEnv): Promise<void> {
  const all = await readAll(env);
  all[account] = pending;
  await writeAll(env, all);
}

/** The waiting sign-in of this account, or undefined (none, or expired: then forgotten). */
export async function loadPendingLogin(
  account: string,
  env: NodeJS.ProcessEnv,
  now = Date.now(),
): Promise<{ pending: PendingLogin | undefined; expired: boolean }> {
  const all = await readAll(env);
  const pending = all[account];
  if (!pending) return { pending: undefined, expired: false };
  if (new Date(pending.expiresAt).getTime() <= now) {
    await forgetPendingLogin(account, env);
    return { pending: undefined, expired: true };
  }
  return { pending, expired: false };
}

export async function forgetPendingLogin(account: string, env: NodeJS.ProcessEnv): Promise<void> {
  const all = await readAll(env);
  if (!(account in all)) return;
  delete all[account];
  await writeAll(env, all);
}
