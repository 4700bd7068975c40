/**
 * `createPreviewClient`: what a host's preview route uses to read the draft a preview token was
 * issued for (`cms.content.previewToken`). The token names its document, project, environment
 * and locale (its claims are read, not verified: the server verifies it on every read).
 * @example
 * const preview = createPreviewClient({ baseUrl, token: url.searchParams.get('token') });
 * const draft = await preview.get({ resolve: ['author'] });
 */
import type { ContentType, Document, PreviewClaims } from '@cms/core';
import type { Page } from './pagination.js';
import { callRoute, type In } from './route-call.js';
import { type CallOptions, createTransport, type TransportOptions } from './transport.js';
import type { TypedDocument } from './typed-content.js';

/** Claims of a preview token (docs/api.md "Preview tokens"), declared in core. */
export type { PreviewClaims };

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
    /**
     * The draft the token was issued for; for a release preview token (`claims.release`), the
     * document as that release would publish it.
     */
    get<T extends ContentType = never, R extends string = never>(
      options: { resolve?: readonly R[] } & CallOptions = {},
    ): Promise<[T] extends [never] ? Document : TypedDocument<T, R>> {
      const { resolve, ...call } = options;
      const shown = claims.release === undefined ? { draft: true } : { release: claims.release };
      return callRoute(
        transport,
        'content.get',
        { params: { documentId: claims.documentId }, query: { ...shown, locale: claims.locale, resolve } },
        call,
      );
    },
    /**
     * A release preview token only: a page of documents of a type as its release would publish them
     * (a plain preview token reads its one draft and cannot list).
     */
    list(
      query: Omit<In<'content.list', 'query'>, 'draft' | 'release'>,
      options: CallOptions = {},
    ): Promise<Page<Document>> {
      if (claims.release === undefined) {
        throw new TypeError('This preview token reads one draft: only a release preview token lists.');
      }
      return callRoute(
        transport,
        'content.list',
        { query: { ...query, release: claims.release }, envelope: 'paginated' },
        options,
      );
    },
  };
}
