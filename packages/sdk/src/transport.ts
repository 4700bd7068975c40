/**
 * One HTTP exchange with the API: URL and headers, credentials (API key, preview token or the
 * Studio's session cookie with its CSRF header), timeout, retries, and the envelope unwrapped.
 * Only `fetch`, `AbortSignal` and `Headers`: no Node built-ins, so it runs in browsers and edge runtimes.
 */
import {
  CmsError,
  CmsNetworkError,
  CmsTimeoutError,
  errorFromResponse,
  hasErrorEnvelope,
  invalidResponse,
} from './errors.js';
import {
  DEFAULT_BASE_DELAY_MS,
  DEFAULT_MAX_DELAY_MS,
  DEFAULT_RETRIES,
  isRetryable,
  type RetryOptions,
  retryDelayMs,
  sleep,
} from './retry.js';

/** Header and cookie names of the API (interface.md "Target routing", decisions.md §5). */
export const PROJECT_HEADER = 'X-CMS-Project';
export const ENVIRONMENT_HEADER = 'X-CMS-Environment';
export const SCHEMA_HASH_HEADER = 'X-CMS-Schema-Hash';
export const CSRF_HEADER = 'X-CMS-CSRF-Token';
export const CSRF_COOKIE = 'cms_csrf';
/** Default time to wait for an answer, per attempt. */
export const DEFAULT_TIMEOUT_MS = 30_000;

/** How the client proves who it is. */
export type Credentials =
  | { kind: 'apiKey'; apiKey: string }
  | { kind: 'preview'; token: string }
  /** Same-origin session cookie (the Studio); mutations send the CSRF header. */
  | { kind: 'session'; csrfToken?: () => string | null | undefined }
  | { kind: 'none' };

/** Settings shared by every call of one client. */
export interface TransportOptions {
  /** Where the API is, such as `https://cms.example.com` (the `/api/v1` paths are appended). */
  baseUrl: string;
  credentials: Credentials;
  /** Project slug sent as X-CMS-Project. */
  project?: string;
  /** Environment name sent as X-CMS-Environment. */
  environment?: string;
  /** Headers added to every request. */
  headers?: Record<string, string>;
  /** A fetch implementation; default `globalThis.fetch`. */
  fetch?: typeof fetch;
  /** Ms to wait for each attempt's answer; default 30 000. 0 waits forever. */
  timeoutMs?: number;
  /** Attempts after the first (number) or full retry settings. */
  retries?: number | RetryOptions;
  /**
   * `X-CMS-Schema-Hash` of writes: the hash of your config (core `resolveConfigSchema(config,
   * environment).effectiveSchemaHash`), or `'fetch'` to read the server's once and read it again
   * (then retry once) when a write answers SCHEMA_HASH_MISMATCH.
   */
  schemaHash?: string | 'fetch';
  /**
   * Called before each retry, after the wait is chosen: the CLI shows it as progress. `status` is the
   * answer's (429, 503), or 0 when no answer came.
   */
  onRetry?: (info: RetryInfo) => void;
}

/** What `onRetry` is told about a retry. */
export interface RetryInfo {
  /** The attempt about to be made, counting retries only: 1 for the first retry. */
  attempt: number;
  waitMs: number;
  status: number;
  /** Why the last attempt failed: a `CmsError` or `CmsNetworkError`. */
  error: unknown;
}

/** A value a query parameter can take; arrays repeat the parameter. */
export type QueryValue = string | number | boolean | null | undefined | readonly (string | number | boolean)[];

/** One call, as an area method describes it. */
export interface CallSpec {
  method: string;
  /** Path with its parameters filled in. */
  path: string;
  query?: Record<string, QueryValue> | undefined;
  headers?: Record<string, string | undefined> | undefined;
  /** A JSON body, or a prepared body (FormData, Blob, stream) sent as is. */
  json?: unknown;
  body?: NonNullable<RequestInit['body']>;
  envelope: 'single' | 'paginated' | 'cursor' | 'feed' | 'raw';
  /** Send X-CMS-Schema-Hash (content writes). */
  schemaHash?: boolean;
  /** Per-call overrides. */
  signal?: AbortSignal | undefined;
  timeoutMs?: number | undefined;
  /** Next.js data-cache options, passed to fetch as they are. */
  next?: NextFetchOptions | undefined;
  /** fetch's `cache` mode. */
  cache?: FetchCacheMode | undefined;
  /** Another fetch for this call only (a Next.js build's uncached read, next-cached-read.ts). */
  fetch?: typeof fetch | undefined;
}

/** fetch's `cache` mode (`RequestCache`, spelled out: not every runtime's types declare it). */
export type FetchCacheMode = 'default' | 'no-store' | 'reload' | 'no-cache' | 'force-cache' | 'only-if-cached';

/** Next.js's `fetch` options (`next: { revalidate, tags }`); other runtimes ignore them. */
export interface NextFetchOptions {
  /** Seconds the answer may be cached, `false` for no limit, `0` never. */
  revalidate?: number | false;
  /** Cache tags; content reads add `cms:<project>:<environment>:<type>` or `cms:document:<documentId>`. */
  tags?: string[];
}

/** Per-call options every method accepts. */
export interface CallOptions {
  signal?: AbortSignal;
  timeoutMs?: number;
  /** Headers for this call only. */
  headers?: Record<string, string>;
  /** Next.js: `{ revalidate, tags }` for its data cache (docs/frameworks.md). */
  next?: NextFetchOptions;
  /** fetch's `cache` mode, such as `'force-cache'` or `'no-store'`. */
  cache?: FetchCacheMode;
}

/** What a transport exposes to the areas. */
export interface Transport {
  readonly options: TransportOptions;
  call<T>(spec: CallSpec): Promise<T>;
  /** Sends a request with the client's credentials and headers, without unwrapping: for raw routes. */
  fetchRaw(spec: CallSpec): Promise<Response>;
}

function queryString(query: Record<string, QueryValue> | undefined): string {
  if (!query) return '';
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(query)) {
    if (value === undefined || value === null) continue;
    if (Array.isArray(value)) for (const item of value) params.append(name, String(item));
    else params.append(name, String(value));
  }
  const text = params.toString();
  return text ? `?${text}` : '';
}

function readCookie(name: string): string | null {
  const cookie = (globalThis as { document?: { cookie?: string } }).document?.cookie ?? '';
  for (const part of cookie.split(';')) {
    const [key, ...rest] = part.trim().split('=');
    if (key === name) return decodeURIComponent(rest.join('='));
  }
  return null;
}

/** Statuses whose answers have no body by definition (RFC 9110). */
const NO_BODY_STATUS = new Set([204, 205, 304]);

function isRead(method: string): boolean {
  return method === 'GET' || method === 'HEAD';
}

/** Creates the transport of one client. */
export function createTransport(options: TransportOptions): Transport {
  // The global fetch is looked up per call, not kept: Next.js replaces it with its caching fetch after a
  // site's modules (and the clients they create) have loaded, and only that one honours `next: { tags }`.
  const fetchImpl: typeof fetch = options.fetch ?? ((input, init) => globalThis.fetch(input, init));
  const base = options.baseUrl.replace(/\/+$/, '');
  const retry: Required<RetryOptions> =
    typeof options.retries === 'number'
      ? { retries: options.retries, baseDelayMs: DEFAULT_BASE_DELAY_MS, maxDelayMs: DEFAULT_MAX_DELAY_MS }
      : {
          retries: options.retries?.retries ?? DEFAULT_RETRIES,
          baseDelayMs: options.retries?.baseDelayMs ?? DEFAULT_BASE_DELAY_MS,
          maxDelayMs: options.retries?.maxDelayMs ?? DEFAULT_MAX_DELAY_MS,
        };
  let knownHash: string | null = options.schemaHash && options.schemaHash !== 'fetch' ? options.schemaHash : null;

  function headersOf(spec: CallSpec, hash: string | null): Headers {
    const headers = new Headers(options.headers);
    headers.set('accept', 'application/json');
    const { credentials } = options;
    if (credentials.kind === 'apiKey') headers.set('authorization', `Bearer ${credentials.apiKey}`);
    if (credentials.kind === 'preview') headers.set('authorization', `Preview ${credentials.token}`);
    if (credentials.kind === 'session' && !isRead(spec.method)) {
      // Over https the server names it `__Host-cms_csrf` (docs/access-control.md "Cookies").
      const token = credentials.csrfToken
        ? credentials.csrfToken()
        : (readCookie(`__Host-${CSRF_COOKIE}`) ?? readCookie(CSRF_COOKIE));
      if (token) headers.set(CSRF_HEADER, token);
    }
    if (options.project) headers.set(PROJECT_HEADER, options.project);
    if (options.environment) headers.set(ENVIRONMENT_HEADER, options.environment);
    if (spec.schemaHash && hash) headers.set(SCHEMA_HASH_HEADER, hash);
    if (spec.json !== undefined) headers.set('content-type', 'application/json');
    for (const [name, value] of Object.entries(spec.headers ?? {})) if (value !== undefined) headers.set(name, value);
    return headers;
  }

  async function attempt(spec: CallSpec, hash: string | null): Promise<Response> {
    const url = `${base}${spec.path}${queryString(spec.query)}`;
    const timeoutMs = spec.timeoutMs ?? options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    const timeout = timeoutMs > 0 ? AbortSignal.timeout(timeoutMs) : null;
    const signals = [spec.signal, timeout].filter((signal): signal is AbortSignal => signal != null);
    const signal = signals.length > 1 ? AbortSignal.any(signals) : signals[0];
    try {
      return await (spec.fetch ?? fetchImpl)(url, {
        method: spec.method,
        headers: headersOf(spec, hash),
        body: spec.json !== undefined ? JSON.stringify(spec.json) : spec.body,
        ...(signal ? { signal } : {}),
        ...(spec.next ? { next: spec.next } : {}),
        ...(spec.cache ? { cache: spec.cache } : {}),
        ...(options.credentials.kind === 'session' ? { credentials: 'include' as const } : {}),
        // Streams need half duplex in fetch implementations that support request streams.
        ...(spec.body instanceof ReadableStream ? { duplex: 'half' } : {}),
      } as RequestInit);
    } catch (error: unknown) {
      if (spec.signal?.aborted) throw spec.signal.reason;
      if (timeout?.aborted) throw new CmsTimeoutError(timeoutMs, spec.method, url);
      throw new CmsNetworkError(
        `${spec.method} ${url} failed before an answer: ${(error as Error)?.message ?? String(error)}`,
        spec.method,
        url,
        { cause: error },
      );
    }
  }

  async function readBody(response: Response): Promise<{ body: unknown; text: string }> {
    const text = await response.text();
    if (!text || !(response.headers.get('content-type') ?? '').includes('json')) return { body: null, text };
    try {
      return { body: JSON.parse(text), text };
    } catch {
      return { body: null, text };
    }
  }

  /** Sends with retries; resolves with a 2xx response, else throws. */
  async function send(spec: CallSpec, hash: string | null): Promise<Response> {
    const read = isRead(spec.method);
    // A one-shot body (a stream) cannot be sent twice.
    const attempts = spec.body instanceof ReadableStream ? 1 : retry.retries + 1;
    for (let index = 0; ; index += 1) {
      let failure: unknown;
      let fromEnvelope = false;
      try {
        const response = await attempt(spec, hash);
        if (response.ok || response.status === 304 || (response.status >= 300 && response.status < 400))
          return response;
        const { body, text } = await readBody(response);
        fromEnvelope = hasErrorEnvelope(body);
        failure = errorFromResponse(response, body, text);
      } catch (error: unknown) {
        failure = error;
      }
      const delay =
        index + 1 < attempts && isRetryable(failure, read, fromEnvelope) ? retryDelayMs(failure, index, retry) : null;
      if (delay === null) throw failure;
      options.onRetry?.({
        attempt: index + 1,
        waitMs: delay,
        status: failure instanceof CmsError ? failure.status : 0,
        error: failure,
      });
      await sleep(delay, spec.signal);
    }
  }

  async function serverHash(signal?: AbortSignal): Promise<string> {
    const schema = await call<{ schemaHash: string }>({
      method: 'GET',
      path: '/api/v1/schema',
      envelope: 'single',
      signal,
    });
    knownHash = schema.schemaHash;
    return knownHash;
  }

  /**
   * The envelope's `data` (or the page). Answers that carry no body by definition (HEAD, 204, 205,
   * 304) give `undefined`; any other answer of an enveloped route must be the API's JSON envelope, else
   * INVALID_RESPONSE: no route declares an empty success (core's route contracts), so `undefined`
   * would only hide a proxy's page. Raw routes (OpenAPI, health) give the parsed JSON or null.
   */
  async function unwrap<T>(response: Response, spec: CallSpec): Promise<T> {
    if (spec.method === 'HEAD' || NO_BODY_STATUS.has(response.status)) return undefined as T;
    const { body, text } = await readBody(response);
    if (spec.envelope === 'raw') return body as T;
    const envelope = typeof body === 'object' && body !== null && 'data' in body ? body : null;
    const paged = spec.envelope === 'paginated' || spec.envelope === 'cursor' || spec.envelope === 'feed';
    if (!envelope || (paged && !('pagination' in envelope)))
      throw invalidResponse(response, spec.method, response.url || `${base}${spec.path}`, text);
    if (paged) {
      const page = envelope as { data: unknown; pagination: unknown };
      return { data: page.data, pagination: page.pagination } as T;
    }
    return (envelope as { data: T }).data;
  }

  async function call<T>(spec: CallSpec): Promise<T> {
    const fetchHash = spec.schemaHash && options.schemaHash === 'fetch';
    let hash = knownHash;
    if (fetchHash && hash === null) hash = await serverHash(spec.signal);
    try {
      return await unwrap<T>(await send(spec, hash), spec);
    } catch (error: unknown) {
      if (!fetchHash || !(error instanceof CmsError) || error.code !== 'SCHEMA_HASH_MISMATCH') throw error;
      // The schema changed since the hash was read: read it again and send once more.
      return unwrap<T>(await send(spec, await serverHash(spec.signal)), spec);
    }
  }

  return {
    options,
    call,
    fetchRaw: (spec) => send(spec, knownHash),
  };
}
