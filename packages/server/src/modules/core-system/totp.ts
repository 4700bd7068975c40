import { createCipheriv, createDecipheriv, createHash, hkdfSync, randomBytes } from 'node:crypto';
import { Secret, TOTP } from 'otpauth';

/**
 * TOTP per RFC 6238 with the parameters every authenticator app supports: HMAC-SHA1, 6 digits,
 * 30-second steps, a 160-bit secret (RFC 4226 §4 recommends 160 bits). One step of clock drift is
 * accepted either side (RFC 6238 §5.2). The library compares codes in constant time.
 */
export const TOTP_PERIOD_SECONDS = 30;
export const TOTP_DIGITS = 6;
export const TOTP_WINDOW_STEPS = 1;
const TOTP_SECRET_BYTES = 20;

/** Recovery codes: ten per user, 24 base32 characters (120 bits), shown once in groups of four. */
export const RECOVERY_CODE_COUNT = 10;
const RECOVERY_CODE_BYTES = 15;
const BASE32 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';

/** A new TOTP secret, base32 as authenticator apps take it. */
export function generateTotpSecret(): string {
  return new Secret({ size: TOTP_SECRET_BYTES }).base32;
}

/** The `otpauth://totp/...` URI an authenticator app reads (from a QR code or pasted). */
export function otpauthUri(secret: string, issuer: string, account: string): string {
  return totpOf(secret, issuer, account).toString();
}

function totpOf(secret: string, issuer = '', label = 'cms'): TOTP {
  return new TOTP({
    issuer,
    label,
    secret: Secret.fromBase32(secret),
    algorithm: 'SHA1',
    digits: TOTP_DIGITS,
    period: TOTP_PERIOD_SECONDS,
  });
}

/** Does the text look like a TOTP code (six digits, spaces allowed)? Anything else is tried as a recovery code. */
export function isTotpCode(code: string): boolean {
  return /^\d{6}$/.test(code.replace(/\s/g, ''));
}

/**
 * The RFC 6238 time step a code belongs to, within the drift window around `at`, or null when it
 * matches none. The caller refuses a step not later than the last accepted one (replay).
 */
export function totpStepOf(secret: string, code: string, at: Date): number | null {
  const token = code.replace(/\s/g, '');
  const delta = totpOf(secret).validate({ token, timestamp: at.getTime(), window: TOTP_WINDOW_STEPS });
  if (delta === null) return null;
  return Math.floor(at.getTime() / 1000 / TOTP_PERIOD_SECONDS) + delta;
}

/** New recovery codes, formatted `XXXX-XXXX-XXXX-XXXX-XXXX-XXXX`. */
export function generateRecoveryCodes(): string[] {
  return Array.from({ length: RECOVERY_CODE_COUNT }, () => {
    const bytes = randomBytes(RECOVERY_CODE_BYTES);
    let bits = 0;
    let value = 0;
    let text = '';
    for (const byte of bytes) {
      value = (value << 8) | byte;
      bits += 8;
      while (bits >= 5) {
        text += BASE32[(value >>> (bits - 5)) & 31];
        bits -= 5;
      }
    }
    return text.match(/.{4}/g)?.join('-') ?? text;
  });
}

/**
 * What is stored of a recovery code: SHA-256 of its characters, case, spaces and dashes ignored. A
 * plain hash suffices for 120 random bits (ASVS 5.0 6.5.2 asks a password hash only below 112).
 */
export function recoveryCodeHash(code: string): Buffer {
  const normalized = code.toUpperCase().replace(/[\s-]/g, '');
  return createHash('sha256').update(`recovery\u0000${normalized}`).digest();
}

const SEAL_VERSION = 'v1';
const IV_BYTES = 12;
const TAG_BYTES = 16;

/**
 * Seals TOTP secrets at rest: AES-256-GCM under a key derived by HKDF from CMS_SECRET, the user id
 * as additional data (a sealed secret copied to another user does not open). `v1.<iv>.<tag>.<data>`.
 */
export function createTotpSealer(serverSecret: string) {
  const key = Buffer.from(hkdfSync('sha256', serverSecret, 'cms/totp-secret/salt', 'cms totp secret v1', 32));
  return {
    seal(plain: string, userId: string): string {
      const iv = randomBytes(IV_BYTES);
      const cipher = createCipheriv('aes-256-gcm', key, iv, { authTagLength: TAG_BYTES });
      cipher.setAAD(Buffer.from(userId, 'utf8'));
      const data = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
      return [SEAL_VERSION, iv, cipher.getAuthTag(), data]
        .map((p) => (typeof p === 'string' ? p : p.toString('base64url')))
        .join('.');
    },
    /** The secret, or null when it does not open (CMS_SECRET changed, or tampered with). */
    open(sealed: string, userId: string): string | null {
      const [version, iv, tag, data] = sealed.split('.');
      if (version !== SEAL_VERSION || !iv || !tag || data === undefined) return null;
      try {
        const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'), {
          authTagLength: TAG_BYTES,
        });
        decipher.setAAD(Buffer.from(userId, 'utf8'));
        decipher.setAuthTag(Buffer.from(tag, 'base64url'));
        return Buffer.concat([decipher.update(Buffer.from(data, 'base64url')), decipher.final()]).toString('utf8');
      } catch {
        return null;
      }
    },
  };
}

/** The sealer's type. */
export type TotpSealer = ReturnType<typeof createTotpSealer>;
