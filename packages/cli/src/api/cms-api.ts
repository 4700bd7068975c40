/**
 * The server areas the CLI uses, on `@cms/sdk`'s client: the SDK does the requests, retries and
 * envelopes; this layer turns its errors into the CLI's (ApiError with the code, or "server
 * unreachable") and adds what sync needs (every page of a type, the schema hash per write).
 * `action run` alone goes through the small HttpClient: it calls routes the SDK does not name.
 */
import type {
  BatchOperation,
  ContentBatchResult,
  Document,
  MigrationBody,
  ResolvedSchema,
  SchemaType,
} from '@cms/core';
import { CmsError, CmsNetworkError, CmsTimeoutError, createClient } from '@cms/sdk';
import { CliError, EXIT } from '../cli/exit-codes.js';
import { ApiError } from './api-error.js';
import { type ClientSettings, HttpClient } from './http-client.js';
import { mapLimit } from './limiter.js';

/** The document fields sync reads: the wire shape of core, never retyped here. */
export type RemoteDocument = Pick<
  Document,
  | 'documentId'
  | 'translationGroupId'
  | 'path'
  | 'type'
  | 'locale'
  | 'format'
  | 'isDeleted'
  | 'hasUnpublishedChanges'
  | 'version'
  | 'publishedVersion'
  | 'draftRevision'
  | 'frontmatter'
  | 'body'
  | 'updatedAt'
>;

export interface DocumentInput {
  type: string;
  path: string;
  locale?: string;
  format?: string;
  frontmatter: Record<string, unknown>;
  body: string;
  translationGroupId?: string;
}

const PAGE = 100;

/** Runs an SDK call, mapping its errors to the CLI's. */
async function sdk<T>(settings: ClientSettings, call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    // A 2xx answer that is not the API's JSON envelope (an HTML page): a wrong base address.
    if (error instanceof CmsError && error.code === 'INVALID_RESPONSE') {
      const contentType = error.details.contentType;
      throw notTheApi(settings.serverUrl, typeof contentType === 'string' ? contentType : 'empty or non-JSON body');
    }
    if (error instanceof CmsError) {
      throw new ApiError(error.code, error.status, error.message, error.details ?? {}, error.requestId ?? undefined);
    }
    if (error instanceof CmsNetworkError || error instanceof CmsTimeoutError) {
      const cause =
        error instanceof CmsTimeoutError ? 'timeout' : ((error.cause as { code?: string })?.code ?? 'network error');
      throw new CliError('SERVER_UNREACHABLE', `Cannot reach the server at ${settings.serverUrl} (${cause}).`, {
        exitCode: EXIT.failure,
        hint: 'Check that the server is running and that --server-url (or CMS_SERVER_URL) points at it.',
        details: { serverUrl: settings.serverUrl, cause },
      });
    }
    // The SDK reads `data` of a body that is not the API's envelope (an HTML page): a wrong base address.
    if (error instanceof TypeError) throw notTheApi(settings.serverUrl, error.message);
    throw error;
  }
}

function notTheApi(serverUrl: string, cause?: string): CliError {
  return new CliError('NOT_THE_API', `The server at ${serverUrl} did not answer like the CMS API (no JSON data).`, {
    exitCode: EXIT.failure,
    hint: "Check --server-url (or CMS_SERVER_URL): the server's base address, without /studio or /api (for example http://127.0.0.1:4000).",
    details: { serverUrl, ...(cause ? { cause } : {}) },
  });
}

export function createApi(settings: ClientSettings, concurrency = 8) {
  const http = new HttpClient(settings);
  const client = createClient({
    baseUrl: settings.serverUrl.replace(/\/+$/, ''),
    ...(settings.apiKey ? { apiKey: settings.apiKey } : {}),
    ...(settings.project ? { project: settings.project } : {}),
    ...(settings.environment ? { environment: settings.environment } : {}),
    retries: { retries: settings.retries ?? 4 },
    timeoutMs: settings.timeoutMs ?? 60_000,
  });
  const run = <T>(call: () => Promise<T>) => sdk(settings, call);
  const withHash = (schemaHash: string) => ({ headers: { 'x-cms-schema-hash': schemaHash } });
  // A 2xx answer without the API's JSON envelope (the Studio's HTML under a wrong base address)
  // reads as no data: say so instead of failing later on a missing field.
  const cast = <T>(value: unknown): T => {
    if (value === undefined || value === null) throw notTheApi(settings.serverUrl);
    return value as T;
  };
  return {
    http,
    concurrency,
    me: () => run(async () => cast<Record<string, unknown>>(await client.me.get())),
    /** Revokes the key this client sends (`cms logout`). */
    revokeCurrentKey: () => run(() => client.apiKeys.revokeCurrent()),
    content: {
      /** Every live document of a type: the first page, then the rest in parallel. */
      async listAll(type: string, options: { published?: boolean } = {}): Promise<RemoteDocument[]> {
        const page = (offset: number) =>
          run(() =>
            client.content.list({
              type,
              limit: PAGE,
              offset,
              sort: 'path',
              order: 'asc',
              ...(options.published ? { published: true } : { draft: true }),
            } as never),
          );
        const first = await page(0);
        if (!Array.isArray(first?.data)) throw notTheApi(settings.serverUrl);
        const offsets: number[] = [];
        for (let offset = PAGE; offset < first.pagination.total; offset += PAGE) offsets.push(offset);
        const rest = await mapLimit(offsets, concurrency, async (offset) => (await page(offset)).data);
        return cast<RemoteDocument[]>([...first.data, ...rest.flat()]);
      },
      get: (id: string, options: { draft?: boolean } = { draft: true }) =>
        run(async () => cast<RemoteDocument>(await client.content.get(id, options.draft ? { draft: true } : {}))),
      create: (input: DocumentInput, schemaHash: string) =>
        run(async () => cast<RemoteDocument>(await client.content.create(input as never, withHash(schemaHash)))),
      update: (
        id: string,
        input: { frontmatter: Record<string, unknown>; body: string; draftRevision: number },
        schemaHash: string,
      ) => run(async () => cast<RemoteDocument>(await client.content.update(id, input as never, withHash(schemaHash)))),
      /**
       * `POST /content/batch`: creates and updates, one transaction on the server, one result per
       * operation. The SDK does not name the route yet, so it goes through the HttpClient (same
       * retries on 429/503). A server without the route answers 404 or 405: callers fall back.
       */
      batch: (operations: BatchOperation[], schemaHash: string) =>
        http.request<ContentBatchResult>('POST', '/api/v1/content/batch', {
          body: { operations },
          headers: { 'x-cms-schema-hash': schemaHash },
        }),
      delete: (id: string) => run(() => client.content.delete(id)),
      publish: (id: string, changeSummary?: string) =>
        run(async () =>
          cast<{ documentId: string; version: number; publishedVersion: number }>(
            await client.content.publish(id, (changeSummary ? { changeSummary } : {}) as never),
          ),
        ),
    },
    schema: {
      get: () =>
        run(async () =>
          cast<{ types: SchemaType[]; schemaHash: string; locales?: { default: string; supported: string[] } }>(
            await client.schema.get(),
          ),
        ),
      sync: (body: { rawConfigSnapshot: unknown; resolvedSchema: ResolvedSchema; schemaHash: string }) =>
        run(async () =>
          cast<{ synced: boolean; schemaHash: string; typesCount: number; types: string[] }>(
            await client.schema.sync(body as never),
          ),
        ),
    },
    environments: {
      list: () => run(async () => cast<Array<Record<string, unknown>>>(await client.environments.list())),
      create: (body: { name: string; extends?: string; cloneFrom?: string }) =>
        run(async () => cast<Record<string, unknown>>(await client.environments.create(body))),
      promote: (source: string, body: { target: string; dryRun?: boolean; documentIds?: string[] }) =>
        run(async () => cast<Record<string, unknown>>(await client.environments.promote(source, body))),
    },
    media: {
      upload: (file: Blob, filename: string) =>
        run(async () => cast<Record<string, unknown>>(await client.media.upload({ file, filename }))),
    },
    migrations: {
      // The CLI reads the migration file as JSON; the server validates it against MigrationBody.
      run: (body: Record<string, unknown>) => run(() => client.migrations.run(body as MigrationBody)),
    },
    actions: {
      list: () => run(async () => cast<Array<Record<string, unknown>>>(await client.actions.list())),
      get: (id: string) => run(async () => cast<Record<string, unknown>>(await client.actions.get(id))),
    },
    auth: {
      start: (body: { project: string; environment: string; callbackUrl?: string }) =>
        run(() => client.auth.cli.start(body)),
      /** Where the sign-in stands; `denied` once the user refused it in the Studio. */
      poll: (challengeId: string, options?: { signal?: AbortSignal }) =>
        run(() => client.auth.cli.poll(challengeId, options)),
      exchange: (body: { challengeId: string; code: string }) =>
        run(async () =>
          cast<{ apiKey: string; expiresAt: string | null; keyId?: string }>(await client.auth.cli.exchange(body)),
        ),
    },
  };
}

export type CmsApi = ReturnType<typeof createApi>;
