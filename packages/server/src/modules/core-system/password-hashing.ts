import { randomBytes } from 'node:crypto';
import { invalidInput } from '@cms/core';
import argon2 from 'argon2';

/**
 * argon2id parameters (decisions.md §5; OWASP's minimum configuration): 19 MiB of memory, 2 passes,
 * one lane. Raising any of them makes the next successful sign-in of each user rehash its password.
 */
export const PASSWORD_HASH_OPTIONS = {
  type: argon2.argon2id,
  memoryCost: 19_456,
  timeCost: 2,
  parallelism: 1,
} as const;

/** Password length bounds (decisions.md §5); no composition rules. */
export const PASSWORD_MIN_LENGTH = 12;
export const PASSWORD_MAX_LENGTH = 256;

/** Characters are counted as code points, so an emoji counts once. */
function passwordLength(password: string): number {
  return [...password].length;
}

/** Throws INVALID_INPUT at `field` when the password is too short or too long. */
export function assertPasswordPolicy(password: string, field = 'body.password'): void {
  const length = passwordLength(password);
  if (length < PASSWORD_MIN_LENGTH || length > PASSWORD_MAX_LENGTH) {
    throw invalidInput({
      [field]: `must be ${PASSWORD_MIN_LENGTH} to ${PASSWORD_MAX_LENGTH} characters long (it has ${length})`,
    });
  }
}

/** Hashes a password with the current argon2id parameters into a PHC string. */
export function hashPassword(password: string): Promise<string> {
  return argon2.hash(password, PASSWORD_HASH_OPTIONS);
}

/** Does the password match the PHC string? A malformed stored hash never matches. */
export async function verifyPassword(hash: string, password: string): Promise<boolean> {
  try {
    return await argon2.verify(hash, password);
  } catch {
    return false;
  }
}

/** Was the hash made with other parameters than the current ones (so it should be redone)? */
export function passwordNeedsRehash(hash: string): boolean {
  if (!hash.startsWith('$argon2id$')) return true;
  return argon2.needsRehash(hash, {
    memoryCost: PASSWORD_HASH_OPTIONS.memoryCost,
    timeCost: PASSWORD_HASH_OPTIONS.timeCost,
    parallelism: PASSWORD_HASH_OPTIONS.parallelism,
  });
}

let dummyHash: Promise<string> | null = null;

/**
 * Spends the time of one verification when there is no hash to check (unknown email, user without
 * a password), so response timing does not tell whether an account exists.
 */
export async function verifyAgainstNothing(password: string): Promise<false> {
  dummyHash ??= hashPassword(randomBytes(16).toString('base64url'));
  await verifyPassword(await dummyHash, password);
  return false;
}
