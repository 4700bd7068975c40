/**
 * The codes and refusals of the command-line device flow (interface.md "Command-line device
 * challenge", decisions.md §5): how codes are made and compared, which callbacks are allowed.
 */
import { randomInt } from 'node:crypto';
import { CmsError, invalidInput } from '@cms/core';

/** Codes are typed by people: no 0/O or 1/I/L. 8 characters of 32 is 40 bits, with 5 guesses allowed. */
const CODE_ALPHABET = 'ABCDEFGHJKMNPQRSTUVWXYZ23456789';
const CODE_LENGTH = 8;

/** A one-time code, as the authorize page shows it: `K7QM-3XTP`. */
export function makeCode(): string {
  let code = '';
  for (let i = 0; i < CODE_LENGTH; i += 1) code += CODE_ALPHABET[randomInt(CODE_ALPHABET.length)];
  return `${code.slice(0, 4)}-${code.slice(4)}`;
}

/**
 * The user code the command line prints and the authorize page shows before approving: digits only
 * (`482-913`), so it never looks like the one-time code pasted back (`K7QM-3XTP`). Not a secret.
 */
export function makeUserCode(): string {
  const digits = String(randomInt(1_000_000)).padStart(6, '0');
  return `${digits.slice(0, 3)}-${digits.slice(3)}`;
}

/** Codes compare without case, dashes or spaces, so a pasted or retyped code matches. */
export function normalizeCode(code: string): string {
  return code.replace(/[\s-]/g, '').toUpperCase();
}

/**
 * A loopback callback (decisions.md §5): `http://127.0.0.1:<port>/...` or `http://localhost:<port>/...`,
 * nothing else, so a started flow can never send the code to another host.
 */
export function assertLoopbackCallback(callbackUrl: string): void {
  let url: URL;
  try {
    url = new URL(callbackUrl);
  } catch {
    throw invalidInput({ 'body.callbackUrl': 'must be an absolute URL' });
  }
  const loopback = url.hostname === '127.0.0.1' || url.hostname === 'localhost';
  if (url.protocol !== 'http:' || !loopback || url.port === '' || url.username || url.password || url.hash) {
    throw invalidInput({
      'body.callbackUrl': 'must be http://127.0.0.1:<port>/... or http://localhost:<port>/... (a loopback address)',
    });
  }
}

/** The challenge's ten minutes are over. */
export const expired = () =>
  new CmsError('FORBIDDEN', 'This sign-in challenge has expired: run the sign-in command again to restart.');
/** `details.reason` tells a refusal apart from the other `FORBIDDEN` answers (RFC 8628 `access_denied`). */
export const denied = () =>
  new CmsError(
    'FORBIDDEN',
    'This sign-in was denied in the Studio: nothing was granted. Run the sign-in command again if you meant to sign in.',
    { reason: 'access_denied' },
  );
/** The fifth wrong code voided the challenge. */
export const killed = () =>
  new CmsError('FORBIDDEN', 'Too many wrong codes: this sign-in challenge is void; run the sign-in command again.');
