/** The credentials file and the pending sign-in beside it are the owner's alone from the first byte (0600). */
import { mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { saveKey, writePrivateFile } from '../../src/cli/credentials.js';
import { savePendingLogin } from '../../src/cli/pending-login.js';

const posix = process.platform !== 'win32';
let dir: string;
let umask: number;

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'cms-credentials-'));
  // With no umask a plain create would be world-readable (0666): the file must not rely on one.
  umask = process.umask(0);
});
afterEach(async () => {
  process.umask(umask);
  await rm(dir, { recursive: true, force: true });
});

const modeOf = async (path: string) => (await stat(path)).mode & 0o777;

describe.runIf(posix)('writePrivateFile', () => {
  it('creates the file 0600 and its new folder 0700, with no temporary file left', async () => {
    const file = join(dir, 'cms', 'credentials.json');
    await writePrivateFile(file, '{"a":1}\n');
    expect(await modeOf(file)).toBe(0o600);
    expect(await modeOf(join(dir, 'cms'))).toBe(0o700);
    expect(await readFile(file, 'utf8')).toBe('{"a":1}\n');
    expect(await readdir(join(dir, 'cms'))).toEqual(['credentials.json']);
  });

  it('replaces a world-readable file with a 0600 one', async () => {
    const file = join(dir, 'credentials.json');
    await writeFile(file, 'old', { mode: 0o644 });
    await writePrivateFile(file, 'new');
    expect(await modeOf(file)).toBe(0o600);
    expect(await readFile(file, 'utf8')).toBe('new');
  });
});

describe.runIf(posix)('saveKey without a keychain', () => {
  it('writes the key to a 0600 file', async () => {
    const file = join(dir, 'nested', 'credentials.json');
    const env = { CMS_NO_KEYRING: '1', CMS_CREDENTIALS_FILE: file };
    const store = await saveKey(
      'http://127.0.0.1:4000|default|production',
      { apiKey: 'cms_key_cli_x', expiresAt: null, savedAt: '2026-11-27T10:00:00Z' },
      env,
    );
    expect(store).toBe('file');
    expect(await modeOf(file)).toBe(0o600);
    expect(await readFile(file, 'utf8')).toContain('cms_key_cli_x');
  });
});

describe.runIf(posix)('a pending command-line sign-in', () => {
  it('is written like the credentials: 0600, in a new folder made 0700 that the key then shares', async () => {
    const file = join(dir, 'cms', 'credentials.json');
    const env = { CMS_NO_KEYRING: '1', CMS_CREDENTIALS_FILE: file };
    await savePendingLogin(
      'http://127.0.0.1:4000|default|production',
      { challengeId: 'a-challenge-id', expiresAt: '2026-11-27T10:10:00Z' },
      env,
    );
    expect(await modeOf(join(dir, 'cms'))).toBe(0o700);
    expect(await modeOf(join(dir, 'cms', 'pending-logins.json'))).toBe(0o600);
    await saveKey(
      'http://127.0.0.1:4000|default|production',
      { apiKey: 'cms_key_cli_y', expiresAt: null, savedAt: '2026-11-27T10:00:00Z' },
      env,
    );
    expect(await modeOf(join(dir, 'cms'))).toBe(0o700);
    expect(await modeOf(file)).toBe(0o600);
  });
});
