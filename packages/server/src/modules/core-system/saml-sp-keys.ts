import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

/** The service provider's signing pair (PEM). */
export interface SamlSpKeys {
  key: string;
  cert: string;
}

const KEY_FILE = 'saml-sp-key.pem';
const CERT_FILE = 'saml-sp-cert.pem';
/** The generated certificate is only a carrier for the public key: IdPs pin it, they do not check a chain. */
const CERT_YEARS = 10;

/**
 * The embedded default's SAML signing pair: read from `{CMS_DATA_DIR}/secrets`, or generated there on
 * first use (RSA 2048, SHA-256, self-signed), so it survives restarts like the other generated secrets.
 */
export async function readOrCreateSamlSpKeys(dataDir: string, commonName: string): Promise<SamlSpKeys> {
  const dir = join(dataDir, 'secrets');
  try {
    return { key: await readFile(join(dir, KEY_FILE), 'utf8'), cert: await readFile(join(dir, CERT_FILE), 'utf8') };
  } catch (error: unknown) {
    if (!(error instanceof Error && 'code' in error && error.code === 'ENOENT')) throw error;
  }
  // Loaded here, on first use, not at start: about 13 MiB and a tenth of a second a server without SAML never needs.
  const { generate } = await import('selfsigned');
  const now = new Date();
  const pair = await generate([{ name: 'commonName', value: commonName.slice(0, 64) }], {
    keyType: 'rsa',
    keySize: 2048,
    algorithm: 'sha256',
    notBeforeDate: now,
    notAfterDate: new Date(now.getTime() + CERT_YEARS * 365 * 24 * 60 * 60 * 1000),
  });
  await mkdir(dir, { recursive: true, mode: 0o700 });
  await writeFile(join(dir, KEY_FILE), pair.private, { mode: 0o600 });
  await writeFile(join(dir, CERT_FILE), pair.cert, { mode: 0o644 });
  return { key: pair.private, cert: pair.cert };
}
