import type { Profile } from '@node-saml/node-saml';
import { SsoFailure } from './sso-sign-in.js';

/** The NameID format asked for and read as the user's email. */
export const EMAIL_NAME_ID = 'urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress';
const BEARER = 'urn:oasis:names:tc:SAML:2.0:cm:bearer';
/** Attribute names IdPs use for the email (Entra ID, ADFS, Okta, Keycloak, LDAP-style). */
const EMAIL_ATTRIBUTES = [
  'email',
  'mail',
  'emailAddress',
  'http://schemas.xmlsoap.org/ws/2005/05/identity/claims/emailaddress',
  'urn:oid:0.9.2342.19200300.100.1.3',
];

// xml2js shape of the verified assertion, as far as it is read here.
type XmlNode = { $?: Record<string, string>; _?: string } & Record<string, unknown>;

function first(node: unknown, name: string): XmlNode | undefined {
  const list = (node as Record<string, unknown> | undefined)?.[name];
  return Array.isArray(list) ? (list[0] as XmlNode) : undefined;
}

function all(node: unknown, name: string): XmlNode[] {
  const list = (node as Record<string, unknown> | undefined)?.[name];
  return Array.isArray(list) ? (list as XmlNode[]) : [];
}

/** An answer the ACS refuses as malformed or unverifiable, with what was wrong. */
export function invalidSamlResponse(detail: string): SsoFailure {
  return new SsoFailure('UNAUTHORIZED', 'response_invalid', detail);
}

/** The Issuer an answer claims, read before verification: it only picks the certificate to verify with. */
export function claimedIssuerOf(xml: string): string | undefined {
  return /<(?:[\w-]+:)?Issuer\b[^>]*>\s*([^<]+?)\s*</.exec(xml)?.[1];
}

/** The ID of the assertion an answer holds, read without verification (to tell a replay from a forgery). */
export function claimedAssertionIdOf(xml: string): string | undefined {
  return /<(?:[\w-]+:)?Assertion\b[^>]*\sID="([^"]+)"/.exec(xml)?.[1];
}

/**
 * Checks what node-saml leaves to us on a verified assertion: its issuer is the provider's, a bearer
 * confirmation names this ACS as recipient, and it has an ID (decisions.md §5). Answers the ID and
 * every NotOnOrAfter it carries (of the conditions and the confirmations), for the replay check.
 */
export function checkVerifiedAssertion(
  profile: Profile,
  expected: { issuer: string; recipient: string },
): { assertionId: string; notOnOrAfter: number[] } {
  const assertion = (profile.getAssertion?.() as { Assertion?: XmlNode } | undefined)?.Assertion;
  if (!assertion) throw invalidSamlResponse('no signed assertion');
  if (first(assertion, 'Issuer')?._?.trim() !== expected.issuer) {
    throw invalidSamlResponse('the assertion names another issuer');
  }
  const confirmations = all(first(assertion, 'Subject'), 'SubjectConfirmation').filter(
    (confirmation) => confirmation.$?.Method === BEARER,
  );
  const data = confirmations.map((confirmation) => first(confirmation, 'SubjectConfirmationData')?.$ ?? {});
  if (!data.some((attributes) => attributes.Recipient === expected.recipient)) {
    throw invalidSamlResponse(`the assertion is for another recipient (expected ${expected.recipient})`);
  }
  const assertionId = assertion.$?.ID;
  if (!assertionId) throw invalidSamlResponse('the assertion has no ID');
  const notOnOrAfter = [
    first(assertion, 'Conditions')?.$?.NotOnOrAfter,
    ...data.map((attributes) => attributes.NotOnOrAfter),
  ]
    .map((value) => (value ? Date.parse(value) : Number.NaN))
    .filter((value) => Number.isFinite(value));
  return { assertionId, notOnOrAfter };
}

/** The email of a verified profile: the NameID in email format, or a usual email attribute. */
export function emailOf(profile: Profile): string | null {
  if (profile.nameIDFormat === EMAIL_NAME_ID && profile.nameID) return profile.nameID;
  for (const name of EMAIL_ATTRIBUTES) {
    const value = profile[name];
    if (typeof value === 'string' && value.includes('@')) return value;
    if (Array.isArray(value) && typeof value[0] === 'string') return value[0];
  }
  return null;
}
