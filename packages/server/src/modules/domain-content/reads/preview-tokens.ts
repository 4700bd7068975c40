/**
 * Preview tokens (decisions.md §5): HS256 JWTs bound to one draft, handed to a preview host that
 * presents them as `Authorization: Preview <token>` to read that draft.
 */
import type { PreviewClaims, Scope } from '@cms/core';
import { errors, jwtVerify, SignJWT } from 'jose';
import type { Principal } from '../../../http/request-context.js';

/** Lifetime of a preview token (decisions.md §5: 10 minutes). */
export const PREVIEW_TOKEN_TTL_SECONDS = 600;

/** Audience claim: a JWT made for anything else never passes as a preview token. */
const PREVIEW_AUDIENCE = 'cms:preview';
const ALGORITHM = 'HS256';

/** What a token is bound to when it is signed; `iat` and `exp` are set by the signing. */
export type PreviewBinding = Omit<PreviewClaims, 'iat' | 'exp'>;

/**
 * A preview token holder: it may only read the draft its token names (see `assertPreviewMayRead`),
 * or, with a release claim, content as that release would publish it (`assertPreviewRequest`).
 */
export interface PreviewPrincipal extends Principal {
  readonly type: 'preview';
  readonly preview: PreviewClaims;
}

/**
 * Scopes of a preview principal inside its token's project/environment: `content:read` is what
 * `GET /content/{documentId}` declares, `content:read:draft` what `draft=true` needs. Every other
 * route is refused by the strategy before these matter.
 */
const PREVIEW_SCOPES: ReadonlySet<Scope> = new Set<Scope>(['content:read', 'content:read:draft']);
const NO_SCOPES: ReadonlySet<Scope> = new Set();

function keyOf(secret: string): Uint8Array {
  return new TextEncoder().encode(secret);
}

/** Signs a token for these claims, valid for `ttlSeconds` (by default PREVIEW_TOKEN_TTL_SECONDS) from `now`. */
export async function signPreviewToken(
  secret: string,
  claims: PreviewBinding,
  now: Date,
  ttlSeconds = PREVIEW_TOKEN_TTL_SECONDS,
): Promise<{ token: string; expiresAt: Date }> {
  const issuedAt = Math.floor(now.getTime() / 1000);
  const expiresAt = issuedAt + ttlSeconds;
  const token = await new SignJWT({ ...claims })
    .setProtectedHeader({ alg: ALGORITHM, typ: 'JWT' })
    .setAudience(PREVIEW_AUDIENCE)
    .setIssuedAt(issuedAt)
    .setExpirationTime(expiresAt)
    .sign(keyOf(secret));
  return { token, expiresAt: new Date(expiresAt * 1000) };
}

/** The claims of a valid token signed with `secret`, unexpired at `now`, or null for anything else. */
export async function verifyPreviewToken(secret: string, token: string, now: Date): Promise<PreviewClaims | null> {
  try {
    const { payload } = await jwtVerify(token, keyOf(secret), {
      algorithms: [ALGORITHM],
      audience: PREVIEW_AUDIENCE,
      currentDate: now,
    });
    const { documentId, project, environment, locale, path, draftRevision, previewUrl, release, iat, exp } = payload;
    if (
      typeof iat !== 'number' ||
      typeof exp !== 'number' ||
      typeof documentId !== 'string' ||
      typeof project !== 'string' ||
      typeof environment !== 'string' ||
      typeof locale !== 'string' ||
      typeof path !== 'string' ||
      typeof draftRevision !== 'number' ||
      (previewUrl !== undefined && typeof previewUrl !== 'string') ||
      (release !== undefined && typeof release !== 'string')
    ) {
      return null;
    }
    return {
      documentId,
      project,
      environment,
      locale,
      path,
      draftRevision,
      ...(previewUrl ? { previewUrl } : {}),
      ...(release ? { release } : {}),
      iat,
      exp,
    };
  } catch (error: unknown) {
    // Bad signatures, expiry, a wrong audience and malformed tokens are all JOSEErrors.
    if (error instanceof errors.JOSEError) return null;
    throw error;
  }
}

/** The principal of a request carrying a valid preview token. */
export function previewPrincipal(claims: PreviewClaims): PreviewPrincipal {
  const inTarget = (project: string, environment: string | null) =>
    project === claims.project && (environment === null || environment === claims.environment);
  return {
    type: 'preview',
    id: `preview:${claims.documentId}`,
    label: 'preview token',
    viaSession: false,
    preview: claims,
    canAccess: inTarget,
    scopesIn: (target) =>
      target !== null && target.environmentName !== null && inTarget(target.projectSlug, target.environmentName)
        ? PREVIEW_SCOPES
        : NO_SCOPES,
  };
}

/** The preview claims of a principal, or null when it is not a preview token holder. */
export function previewClaimsOf(principal: Principal): PreviewClaims | null {
  return principal.type === 'preview' && 'preview' in principal ? (principal as PreviewPrincipal).preview : null;
}
