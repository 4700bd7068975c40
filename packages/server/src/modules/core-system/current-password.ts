import { invalidInput } from '@cms/core';
import { verifyAgainstNothing, verifyPassword } from './bounded-password-hashing.js';
import type { AttemptSource } from './device-cookies.js';
import type { LoginThrottle } from './login-throttle.js';

/**
 * Proves a signed-in person knows their password now (ASVS 6.2.3), before their own password changes
 * or their second factor goes: each check reserves an attempt of the login backoff first, like a
 * sign-in (RATE_LIMITED while in backoff), given back only when it matches. A wrong one is
 * INVALID_INPUT on `body.currentPassword`.
 */
export async function assertIsCurrentPassword(
  throttle: LoginThrottle,
  user: { email: string; passwordHash: string | null },
  currentPassword: string,
  from: AttemptSource,
): Promise<void> {
  const keys = throttle.keysFor(user.email, from);
  const reserved = await throttle.reserveAttempt(keys);
  const matches = await throttle.check(reserved, () =>
    user.passwordHash ? verifyPassword(user.passwordHash, currentPassword) : verifyAgainstNothing(currentPassword),
  );
  if (!matches) throw invalidInput({ 'body.currentPassword': 'is not your current password' });
  await throttle.recordSuccess(keys, reserved);
}
