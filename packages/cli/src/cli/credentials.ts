/**
 * Keys from `cms login`, stored per server, project and environment: in the OS keychain through
 * @napi-rs/keyring when it works, else in `<config dir>/cms/credentials.json` with mode 0600 and a
 * visible warning. `CMS_CREDENTIALS_FILE` moves the file; `CMS_NO_KEYRING=1` skips the keychain.
 */
import { randomBytes } from 'node:crypto';
import { chmod, mkdir, open, readFile, rename, rm } from 'node:fs/promises';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';

export interface StoredKey {
  apiKey: string;
  expiresAt: string | null;
  keyId?: string | undefined;
  savedAt: string;
}

export type Store = 'keyring' | 'file';

const SERVICE = 'cms-cli';

export function credentialsFile(env: NodeJS.ProcessEnv = process.env): string {
  if (env.CMS_CREDENTIALS_FILE) return env.CMS_CREDENTIALS_FILE;
  const base =
    process.platform === 'win32'
      ? (env.APPDATA ?? join(homedir(), 'AppData', 'Roaming'))
      : (env.XDG_CONFIG_HOME ?? join(homedir(), '.config'));
  return join(base, 'cms', 'credentials.json');
}

export function credentialKey(serverUrl: string, project: string, environment: string): string {
  return `${serverUrl.replace(/\/+$/, '')}|${project}|${environment}`;
}

interface KeyringEntry {
  setPassword(value: string): void;
  getPassword(): string | null | undefined;
  deletePassword(): unknown;
}

async function keyring(account: string, env: NodeJS.ProcessEnv): Promise<KeyringEntry | undefined> {
  if (env.CMS_NO_KEYRING === '1') return undefined;
  try {
    const module = (await import('@napi-rs/keyring')) as {
      Entry: new (service: string, account: string) => KeyringEntry;
    };
    return new module.Entry(SERVICE, account);
  } catch {
    return undefined;
  }
}

async function readFileStore(file: string): Promise<Record<string, StoredKey & { store?: Store }>> {
  try {
    return JSON.parse(await readFile(file, 'utf8'));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return {};
    throw error;
  }
}

async function writeFileStore(file: string, data: Record<string, unknown>): Promise<void> {
  await writePrivateFile(file, `${JSON.stringify(data, null, 2)}\n`);
}

/**
 * Replaces `file` atomically with `text`, readable by its owner only from the first byte: the
 * temporary file is created with mode 0600 (`wx`, never an existing file) before anything is written,
 * then renamed over the old one. A new folder is made 0700.
 */
export async function writePrivateFile(file: string, text: string): Promise<void> {
  await mkdir(dirname(file), { recursive: true, mode: 0o700 });
  const temp = `${file}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`;
  const handle = await open(temp, 'wx', 0o600);
  try {
    // The umask may only have narrowed the mode; make it exactly 0600 before the key is written.
    await handle.chmod(0o600);
    await handle.writeFile(text);
    await handle.sync();
  } catch (error) {
    await handle.close();
    await rm(temp, { force: true });
    throw error;
  }
  await handle.close();
  try {
    await rename(temp, file);
  } catch (error) {
    await rm(temp, { force: true });
    throw error;
  }
  if (process.platform === 'win32') await chmod(file, 0o600);
}

/** Saves a key; returns where it went. The file store always records the entry (the key only without a keyring). */
export async function saveKey(account: string, key: StoredKey, env: NodeJS.ProcessEnv = process.env): Promise<Store> {
  const file = credentialsFile(env);
  const all = await readFileStore(file);
  const entry = await keyring(account, env);
  let store: Store = 'file';
  if (entry) {
    try {
      entry.setPassword(JSON.stringify(key));
      store = 'keyring';
    } catch {
      store = 'file';
    }
  }
  all[account] =
    store === 'keyring'
      ? { apiKey: '', expiresAt: key.expiresAt, keyId: key.keyId, savedAt: key.savedAt, store }
      : { ...key, store };
  await writeFileStore(file, all);
  return store;
}

export async function loadKey(
  account: string,
  env: NodeJS.ProcessEnv = process.env,
): Promise<(StoredKey & { store: Store }) | undefined> {
  const all = await readFileStore(credentialsFile(env));
  const record = all[account];
  if (!record) return undefined;
  if (record.store === 'keyring') {
    const entry = await keyring(account, env);
    try {
      const text = entry?.getPassword();
      if (text) return { ...(JSON.parse(text) as StoredKey), store: 'keyring' };
    } catch {
      return undefined;
    }
    return undefined;
  }
  return { ...record, store: 'file' };
}

export async function deleteKey(account: string, env: NodeJS.ProcessEnv = process.env): Promise<boolean> {
  const file = credentialsFile(env);
  const all = await readFileStore(file);
  const record = all[account];
  if (!record) return false;
  if (record.store === 'keyring') {
    try {
      (await keyring(account, env))?.deletePassword();
    } catch {
      // The keychain entry may already be gone; the file record is removed below either way.
    }
  }
  delete all[account];
  await writeFileStore(file, all);
  return true;
}

/** The server, project and environment of every key this machine stores (the keychain's too). */
export async function storedAccounts(
  env: NodeJS.ProcessEnv = process.env,
): Promise<Array<{ serverUrl: string; project: string; environment: string }>> {
  const all = await readFileStore(credentialsFile(env)).catch(() => ({}));
  return Object.keys(all).flatMap((account) => {
    const [serverUrl, project, environment] = account.split('|');
    return serverUrl && project && environment ? [{ serverUrl, project, environment }] : [];
  });
}
