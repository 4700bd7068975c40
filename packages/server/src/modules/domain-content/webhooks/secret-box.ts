import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';

/**
 * Encrypts webhook secrets at rest. Signing (HMAC) needs the secret in clear, so unlike API keys it
 * cannot be stored as a hash. AES-256-GCM with a key derived by HKDF-SHA256 from `CMS_SECRET`; the
 * webhook id is the additional authenticated data, so a ciphertext copied onto another row does not
 * decrypt. Stored as `v1.<iv>.<tag>.<ciphertext>` (base64url). See docs/webhooks.md "Secret storage".
 */
export interface SecretBox {
  seal(plain: string, webhookId: string): string;
  /** Throws SecretBoxError when the ciphertext does not open with this server's key. */
  open(sealed: string, webhookId: string): string;
}

/** A stored secret that cannot be decrypted: malformed, tampered with, or sealed under another CMS_SECRET. */
export class SecretBoxError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SecretBoxError';
  }
}

const FORMAT_VERSION = 'v1';
const KEY_BYTES = 32;
// 96-bit IVs are GCM's native size (NIST SP 800-38D); random IVs are safe far beyond our volume.
const IV_BYTES = 12;
const TAG_BYTES = 16;
// Fixed salt and info: the same CMS_SECRET always yields the same key, and this key serves no other use.
const HKDF_SALT = 'cms/webhook-secret/salt';
const HKDF_INFO = 'cms webhook secret encryption v1';

/** Creates the box from the server secret (`config.secret`). */
export function createSecretBox(serverSecret: string): SecretBox {
  const key = Buffer.from(hkdfSync('sha256', serverSecret, HKDF_SALT, HKDF_INFO, KEY_BYTES));
  return {
    seal(plain, webhookId) {
      const iv = randomBytes(IV_BYTES);
      const cipher = createCipheriv('aes-256-gcm', key, iv, { authTagLength: TAG_BYTES });
      cipher.setAAD(Buffer.from(webhookId, 'utf8'));
      const ciphertext = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
      return [FORMAT_VERSION, iv, cipher.getAuthTag(), ciphertext]
        .map((part) => (typeof part === 'string' ? part : part.toString('base64url')))
        .join('.');
    },
    open(sealed, webhookId) {
      const [version, iv, tag, ciphertext, ...rest] = sealed.split('.');
      if (version !== FORMAT_VERSION || !iv || !tag || ciphertext === undefined || rest.length > 0) {
        throw new SecretBoxError('the stored webhook secret is malformed: update the webhook with its secret');
      }
      try {
        const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'), {
          authTagLength: TAG_BYTES,
        });
        decipher.setAAD(Buffer.from(webhookId, 'utf8'));
        decipher.setAuthTag(Buffer.from(tag, 'base64url'));
        return Buffer.concat([decipher.update(Buffer.from(ciphertext, 'base64url')), decipher.final()]).toString(
          'utf8',
        );
      } catch {
        throw new SecretBoxError(
          'the stored webhook secret does not decrypt (was CMS_SECRET changed?): update the webhook with its secret',
        );
      }
    },
  };
}
