/**
 * `createPreviewClient`: what a host's preview route uses to read the draft a preview token was
 * issued for (`cms.content.previewToken`). The token names its document, project, environment
 * and locale (its claims are read, not verified: the server verifies it on every read).
 * @example
 * const preview = createPreviewClient({ baseUrl, token: url.searchParams.get('token') });
 * const draft = await preview.get({ resolve: ['author'] });
 */
import type { ContentType, Document } from '@cms/core';
import type { TypedDocument } from './content.js';
import { callRoute } from './route-call.js';
import { type CallOptions, createTransport, type TransportOptions } from './transport.js';

/** Claims of a preview token (docs/api.md "Preview tokens"). */
export interface PreviewClaims {
  documentId: string;
  project: string;
  environment: string;
  locale: string;
  path: string;
  draftRevision: number;
  previewUrl?: string;
  exp: number;
  iat: number;
}

/** What `createPreviewClient` takes. */
export interface PreviewClientOptions
  extends Omit<TransportOptions, 'credentials' | 'project' | 'environment' | 'schemaHash'> {
  token: string;
}

/** Reads the claims of a preview token without verifying it. */
export function readPreviewClaims(token: string): PreviewClaims {
  const payload = token.split('.')[1];
  if (!payload) throw new TypeError('Not a preview token: expected a JWT.');
  const base64 = payload.replace(/-/g, '+').replace(/_/g, '/');
  const bytes = Uint8Array.from(atob(base64.padEnd(Math.ceil(base64.length / 4) * 4, '=')), (c) => c.charCodeAt(0));
  return JSON.parse(new TextDecoder().decode(bytes)) as PreviewClaims;
}

/** A client bound to one preview token. */
export function createPreviewClient(options: PreviewClientOptions) {
  const claims = readPreviewClaims(options.token);
  const transport = createTransport({
    ...options,
    credentials: { kind: 'preview', token: options.token },
    project: claims.project,
    environment: claims.environment,
  });
  return {
    claims,
    /** True once the token has expired (new token needed). */
    get expired(): boolean {
      return claims.exp * 1000 <= Date.now();
    },
    /** The draft the token was issued for. */
    get<T extends ContentType = never, R extends string = never>(
      options: { resolve?: readonly R[] } & CallOptions = {},
    ): Promise<[T] extends [never] ? Document : TypedDocument<T, R>> {
      const { resolve, ...call } = options;
      return callRoute(
        transport,
        'content.get',
        { params: { documentId: claims.documentId }, query: { draft: true, locale: claims.locale, resolve } },
        call,
      );
    },
  };
}
