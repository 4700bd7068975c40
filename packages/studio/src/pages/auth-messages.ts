/** What a sign-in error code means to the person at the form (SSO redirects carry only the code). */
const MESSAGES: Record<string, string> = {
  UNAUTHORIZED: 'The email or password is not right.',
  RATE_LIMITED: 'Too many attempts. Wait a moment, then try again.',
  FORBIDDEN: 'This account may not sign in here. Ask an administrator.',
  INVALID_INPUT: 'Check the fields and try again.',
  NOT_FOUND: 'That sign-in provider is not configured.',
  SSO_FAILED: 'Single sign-on did not complete. Try again, or use your password.',
  SSO_STATE_INVALID: 'The single sign-on attempt expired or was already used. Start again.',
  SSO_EMAIL_UNVERIFIED: 'Your identity provider did not confirm your email address.',
  SSO_USER_NOT_ALLOWED: 'Your account is not allowed to sign in here.',
  SSO_PROVIDER_UNAVAILABLE: 'The identity provider could not be reached. Try again later.',
  SERVICE_UNAVAILABLE: 'The server is busy or restarting. Try again in a moment.',
};

export function signInMessage(code: string, fallback?: string): string {
  return MESSAGES[code] ?? fallback ?? 'Sign-in did not work. Try again, or ask an administrator.';
}

const START_AGAIN = 'The single sign-on attempt expired or was already used. Start again.';
const UNVERIFIABLE =
  "The identity provider's answer could not be verified. Ask an administrator to check its settings.";

/**
 * What a single sign-on failure means, by the `reason` the server's redirect carries with its code
 * (`/studio/login?error=<CODE>&reason=<reason>`, docs/access-control.md "Single sign-on").
 */
const SSO_REASONS: Record<string, string> = {
  state_missing: START_AGAIN,
  state_invalid: START_AGAIN,
  expired: START_AGAIN,
  replayed: START_AGAIN,
  browser_mismatch: 'This sign-in was started in another browser or tab. Start it again here.',
  idp_error: 'The identity provider did not sign you in (cancelled or refused). Try again.',
  code_rejected: 'The identity provider refused to finish this sign-in. Start again.',
  id_token_invalid: UNVERIFIABLE,
  response_invalid: UNVERIFIABLE,
  email_missing: 'Your identity provider sent no email address. Ask an administrator.',
  email_not_verified: MESSAGES.SSO_EMAIL_UNVERIFIED as string,
  email_domain_not_allowed: 'Accounts of your email domain may not sign in here.',
  account_disabled: 'This account is disabled. Ask an administrator.',
  account_not_linked:
    'An account with this email already exists and this provider may not sign in to it. Sign in with your password.',
  idp_unreachable: MESSAGES.SSO_PROVIDER_UNAVAILABLE as string,
  unknown_provider: MESSAGES.NOT_FOUND as string,
};

/** The message for a failed single sign-on: by its reason, else by its code (never "wrong password"). */
export function ssoFailureMessage(code: string, reason: string | null): string {
  const byReason = reason ? SSO_REASONS[reason] : undefined;
  if (byReason) return byReason;
  return code === 'UNAUTHORIZED' ? (MESSAGES.SSO_FAILED as string) : signInMessage(code);
}
