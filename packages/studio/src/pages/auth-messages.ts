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
  return MESSAGES[code] ?? fallback ?? `Sign-in failed (${code}).`;
}
