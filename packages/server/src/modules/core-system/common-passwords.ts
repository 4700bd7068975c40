import { createRequire } from 'node:module';
import { invalidInput } from '@cms/core';

let common: ReadonlySet<string> | null = null;

/**
 * The most common passwords of public breach corpora (about 49,000, from `@zxcvbn-ts/language-common`,
 * shipped with the server: no network), lower-cased. The package (several dictionaries, about 12 MiB
 * of memory once parsed) is required at the first check, not imported at start.
 */
function commonPasswords(): ReadonlySet<string> {
  if (common === null) {
    const { dictionary } = createRequire(import.meta.url)(
      '@zxcvbn-ts/language-common',
    ) as typeof import('@zxcvbn-ts/language-common');
    common = new Set((dictionary['passwords-common'] as string[]).map((password) => password.toLowerCase()));
  }
  return common;
}

/** Is this password (compared without case) on the list of common, breached passwords? */
export function isCommonPassword(password: string): boolean {
  return commonPasswords().has(password.toLowerCase());
}

/** Throws INVALID_INPUT at `field` when the password is a common, breached one (ASVS 6.2.4). */
export function assertNotCommonPassword(password: string, field = 'body.password'): void {
  if (isCommonPassword(password)) {
    throw invalidInput({
      [field]:
        'is one of the most common passwords found in breaches: choose another (a few unrelated words work well)',
    });
  }
}
