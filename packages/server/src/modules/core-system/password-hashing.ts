import { randomBytes } from 'node:crypto';
import { createRequire } from 'node:module';
import { invalidInput } from '@cms/core';

type Argon2 = typeof import('@node-rs/argon2');
let loaded: Argon2 | null = null;

/**
 * The native argon2 addon loads at the first hash or verification, not at start: a server that
 * nobody signs in to with a password (API keys, SSO) never maps it (docs/benchmarks.md "Footprint").
 */
function argon2(): Argon2 {
  loaded ??= createRequire(import.meta.url)('@node-rs/argon2') as Argon2;
  return loaded;
}

/**
 * `Algorithm.Argon2id` of @node-rs/argon2: a `const enum` in its types, which a per-file transpiler
 * (esbuild) cannot inline, so the value is written out here.
 */
const ARGON2ID = 2;
/** `Version.V0x13` (argon2 version 19), the same `const enum` case. */
const ARGON2_VERSION_0X13 = 1;

/**
 * argon2id parameters (decisions.md §5; OWASP's minimum configuration): 19 MiB of memory, 2 passes,
 * one lane. Raising any of them makes the next successful sign-in of each user rehash its password.
 * Hashes are PHC strings (`$argon2id$v=19$m=...,t=...,p=...$salt$digest`), the same format the
 * `argon2` addon used before: hashes stored by it verify unchanged (parameters in any order).
 */
export const PASSWORD_HASH_OPTIONS = {
  algorithm: ARGON2ID,
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
  return argon2().hash(password, PASSWORD_HASH_OPTIONS);
}

/** Does the password match the PHC string? A malformed stored hash never matches. */
export async function verifyPassword(hash: string, password: string): Promise<boolean> {
  const { verify } = argon2();
  try {
    return await verify(hash, password);
  } catch {
    return false;
  }
}

/** Was the hash made with other parameters than the current ones (so it should be redone)? */
export function passwordNeedsRehash(hash: string): boolean {
  if (!hash.startsWith('$argon2id$')) return true;
  const { parseOptions } = argon2();
  try {
    const used = parseOptions(hash);
    return (
      used.algorithm !== ARGON2ID ||
      used.version !== ARGON2_VERSION_0X13 ||
      used.memoryCost !== PASSWORD_HASH_OPTIONS.memoryCost ||
      used.timeCost !== PASSWORD_HASH_OPTIONS.timeCost ||
      used.parallelism !== PASSWORD_HASH_OPTIONS.parallelism
    );
  } catch {
    return true;
  }
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
