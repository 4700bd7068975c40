/**
 * The server areas the CLI uses, on `@cms/sdk`'s client: the SDK does the requests, retries on
 * 429/503 (Retry-After honoured) and envelopes, and raises core's `CmsError` for an error envelope;
 * this layer turns "no answer" and "not the API" into the CLI's errors and adds what sync needs
 * (every page of a type, the schema hash per write). `action run` calls routes by path through the
 * same SDK transport (`http.send`).
 */
import type {
  AppliedMigration,
  ContentBatchBody,
  DigestEntry,
  Document,
  MigrationBody,
  ReleaseAction,
  ReleaseStatus,
  ResolvedSchema,
  RouteBody,
  SchemaType,
} from '@cms/core';
import {
  type AuditListQuery,
  CmsError,
  CmsNetworkError,
  CmsTimeoutError,
  createClient,
  createTransport,
  type RetryInfo,
  type TransportOptions,
} from '@cms/sdk';
import { CliError, EXIT } from '../cli/exit-codes.js';
import { mapLimit } from './limiter.js';

/** Where and as whom the CLI calls the server. */
export interface ClientSettings {
  serverUrl: string;
  apiKey?: string | undefined;
  project?: string | undefined;
  environment?: string | undefined;
  /** Called before a retry after a 429 or 503 (shown as progress, not as an error). */
  onRetry?: (info: { attempt: number; waitMs: number; status: number }) => void;
  /** Attempts after the first; default 4. */
  retries?: number;
  /** Ms to wait for each attempt's answer; default 60 000. */
  timeoutMs?: number;
}

/** What `action run` sends: query parameters and a JSON body, to a path it read from the catalog. */
export interface RequestOptions {
  query?: Record<string, string | number | boolean | string[] | undefined>;
  body?: unknown;
}

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
  | 'source'
  | 'updatedAt'
>;

/** Body of `content.create` (core's route input). */
export type DocumentInput = RouteBody<'content.create'>;
/** Body of `content.update` (core's route input). */
export type DocumentUpdate = RouteBody<'content.update'>;
/** Body of `schema.sync` (core's route input). */
export type SchemaSyncBody = RouteBody<'schema.sync'>;

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
    if (error instanceof CmsTimeoutError) {
      // The request went out: a write may have been carried out, or may still be (docs/cli.md "Long operations").
      throw new CliError(
        'SERVER_UNREACHABLE',
        `No answer from the server at ${settings.serverUrl} within ${error.timeoutMs / 1000} s (${error.method} ${new URL(error.url).pathname}).`,
        {
          exitCode: EXIT.failure,
          hint: 'The server may still finish that request: check what it did (`cms status`, `cms release list`) before sending it again; raise --timeout (CMS_TIMEOUT) for slow answers.',
          details: { serverUrl: settings.serverUrl, cause: 'timeout', timeoutMs: error.timeoutMs },
        },
      );
    }
    if (error instanceof CmsNetworkError) {
      const cause = networkCause(error);
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

/** The system's name for why no answer came (`ECONNREFUSED`), as fetch nests it. */
function networkCause(error: CmsNetworkError): string {
  const fetchError = error.cause as { code?: string; name?: string; cause?: { code?: string } } | undefined;
  return fetchError?.cause?.code ?? fetchError?.code ?? fetchError?.name ?? 'network error';
}

function notTheApi(serverUrl: string, cause?: string): CliError {
  return new CliError('NOT_THE_API', `The server at ${serverUrl} did not answer like the CMS API (no JSON data).`, {
    exitCode: EXIT.failure,
    hint: "Check --server-url (or CMS_SERVER_URL): the server's base address, without /studio or /api (for example http://127.0.0.1:4000).",
    details: { serverUrl, ...(cause ? { cause } : {}) },
  });
}

/** Retries announced to the person: answers that asked to wait (429, 503), not silent read retries. */
function announce(settings: ClientSettings) {
  return ({ attempt, waitMs, status }: RetryInfo) => {
    if (status > 0) settings.onRetry?.({ attempt, waitMs, status });
  };
}

export function createApi(settings: ClientSettings, concurrency = 8) {
  const options = {
    baseUrl: settings.serverUrl.replace(/\/+$/, ''),
    ...(settings.project ? { project: settings.project } : {}),
    ...(settings.environment ? { environment: settings.environment } : {}),
    retries: { retries: settings.retries ?? 4 },
    timeoutMs: settings.timeoutMs ?? 60_000,
    onRetry: announce(settings),
  } satisfies Partial<TransportOptions>;
  const client = createClient({ ...options, ...(settings.apiKey ? { apiKey: settings.apiKey } : {}) });
  // `action run` calls a route by the path the catalog gives: the SDK's transport, as is.
  const transport = createTransport({
    ...options,
    credentials: settings.apiKey ? { kind: 'apiKey', apiKey: settings.apiKey } : { kind: 'none' },
  });
  const run = <T>(call: () => Promise<T>) => sdk(settings, call);
  const http = {
    /** Sends a request and returns the parsed JSON answer as it came (envelope included). */
    send: (method: string, path: string, request: RequestOptions = {}): Promise<unknown> =>
      run(() =>
        transport.call<unknown>({
          method,
          path,
          query: request.query,
          json: request.body,
          envelope: 'raw',
        }),
      ),
  };
  const withHash = (schemaHash: string) => ({ headers: { 'x-cms-schema-hash': schemaHash } });
  // A 2xx answer without the API's JSON envelope (the Studio's HTML under a wrong base address)
  // reads as no data: say so instead of failing later on a missing field.
  const cast = <T>(value: unknown): T => {
    if (value === undefined || value === null) throw notTheApi(settings.serverUrl);
    return value as T;
  };
  const present = <T>(value: T | null | undefined): T => {
    if (value === undefined || value === null) throw notTheApi(settings.serverUrl);
    return value;
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
      /**
       * Every live document of these types (of every type of the server's schema when none) with its
       * draft revision and no content: one request that tells status and pull which documents changed
       * since the manifest's sync, and the preflight which paths the server holds.
       */
      digest: (types: string[] = []) =>
        run(async () => cast<{ documents: DigestEntry[] }>(await client.content.digest({ type: types }))).then(
          (answer) => answer.documents,
        ),
      get: (id: string, options: { draft?: boolean } = { draft: true }) =>
        run(async () => cast<RemoteDocument>(await client.content.get(id, options.draft ? { draft: true } : {}))),
      create: (input: DocumentInput, schemaHash: string) =>
        run(async () => cast<RemoteDocument>(await client.content.create(input, withHash(schemaHash)))),
      update: (id: string, input: DocumentUpdate, schemaHash: string) =>
        run(async () => cast<RemoteDocument>(await client.content.update(id, input, withHash(schemaHash)))),
      /**
       * `POST /content/batch`: creates and updates, one transaction on the server, one result per
       * operation. A server without the route answers 404 or 405: callers fall back.
       */
      batch: (operations: ContentBatchBody['operations'], schemaHash: string) =>
        run(async () => present(await client.content.batch({ operations }, withHash(schemaHash)))),
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
      // The config's resolved schema, typed; the route's body takes it as any object.
      sync: (body: Omit<SchemaSyncBody, 'resolvedSchema'> & { resolvedSchema: ResolvedSchema }) =>
        run(async () => present(await client.schema.sync({ ...body, resolvedSchema: { ...body.resolvedSchema } }))),
    },
    environments: {
      list: () => run(async () => cast<Array<Record<string, unknown>>>(await client.environments.list())),
      create: (body: RouteBody<'environments.create'>) =>
        run(async () => cast<Record<string, unknown>>(await client.environments.create(body))),
      promote: (source: string, body: RouteBody<'environments.promote'>) =>
        run(async () => cast<Record<string, unknown>>(await client.environments.promote(source, body))),
    },
    /** Releases (`cms release`, `cms publish`): the SDK's area, with the CLI's errors. */
    releases: {
      list: (query: { status?: ReleaseStatus; limit?: number; offset?: number } = {}) =>
        run(() => client.releases.list(query)),
      get: (id: string) => run(() => client.releases.get(id)),
      create: (body: RouteBody<'releases.create'>) => run(() => client.releases.create(body)),
      addItems: (id: string, items: { documentId: string; action: ReleaseAction }[]) =>
        run(() => client.releases.addItems(id, items)),
      publish: (id: string) => run(() => client.releases.publish(id)),
      schedule: (id: string, body: RouteBody<'releases.schedule'>) => run(() => client.releases.schedule(id, body)),
      revert: (id: string) => run(() => client.releases.revert(id)),
      runDue: () => run(() => client.releases.runDue()),
    },
    /** The audit log (`cms audit`): the SDK's area, with the CLI's errors. */
    audit: {
      list: (query: AuditListQuery = {}) => run(() => client.audit.list(query)),
      verify: () => run(() => client.audit.verify()),
    },
    media: {
      upload: (file: Blob, filename: string) =>
        run(async () => cast<Record<string, unknown>>(await client.media.upload({ file, filename }))),
    },
    migrations: {
      // The CLI reads the migration file as JSON; the server validates it against MigrationBody.
      run: (body: Record<string, unknown>) => run(() => client.migrations.run(body as MigrationBody)),
      /** The migration of this name applied here, or undefined while it is not (`NOT_FOUND`). */
      find: async (name: string): Promise<AppliedMigration | undefined> => {
        try {
          const answer = (await http.send('GET', `/api/v1/content/migrations/${encodeURIComponent(name)}`)) as {
            data?: AppliedMigration;
          } | null;
          return answer?.data ?? undefined;
        } catch (error) {
          if (error instanceof CmsError && error.code === 'NOT_FOUND') return undefined;
          throw error;
        }
      },
    },
    actions: {
      list: () => run(async () => cast<Array<Record<string, unknown>>>(await client.actions.list())),
      get: (id: string) => run(async () => cast<Record<string, unknown>>(await client.actions.get(id))),
    },
    auth: {
      start: (body: RouteBody<'auth.cli.start'>) => run(() => client.auth.cli.start(body)),
      /** Where the sign-in stands; `denied` once the user refused it in the Studio. */
      poll: (challengeId: string, options?: { signal?: AbortSignal }) =>
        run(() => client.auth.cli.poll(challengeId, options)),
      exchange: (body: RouteBody<'auth.cli.exchange'>) =>
        run(async () =>
          cast<{ apiKey: string; expiresAt: string | null; keyId?: string }>(await client.auth.cli.exchange(body)),
        ),
    },
  };
}

export type CmsApi = ReturnType<typeof createApi>;
