/**
 * The CLI's transport: base URL, key, routing headers, JSON envelopes, shared retry on 429/503 with
 * Retry-After honoured and backoff capped, and errors turned into ApiError (server) or CliError
 * (server unreachable). Concurrency is bounded by the callers (mapLimit).
 */
import { CliError, EXIT } from '../cli/exit-codes.js';
import { ApiError } from './api-error.js';

export interface ClientSettings {
  serverUrl: string;
  apiKey?: string | undefined;
  project?: string | undefined;
  environment?: string | undefined;
  /** Called before a retry (shown as progress, not as an error). */
  onRetry?: (info: { attempt: number; waitMs: number; status: number }) => void;
  retries?: number;
  timeoutMs?: number;
}

export interface RequestOptions {
  query?: Record<string, string | number | boolean | string[] | undefined>;
  body?: unknown;
  form?: FormData;
  headers?: Record<string, string>;
  /** Send X-CMS-Project / X-CMS-Environment (default true). */
  scoped?: boolean;
  auth?: boolean;
}

const MAX_WAIT_MS = 30_000;

function retryWait(response: Response, attempt: number): number {
  const header = response.headers.get('retry-after');
  const seconds = header ? Number(header) : Number.NaN;
  const base = Number.isFinite(seconds) ? seconds * 1000 : 250 * 2 ** attempt;
  return Math.min(Math.max(0, base), MAX_WAIT_MS);
}

export class HttpClient {
  constructor(readonly settings: ClientSettings) {}

  url(path: string, query?: RequestOptions['query']): string {
    const url = new URL(`${this.settings.serverUrl.replace(/\/+$/, '')}${path}`);
    for (const [key, value] of Object.entries(query ?? {})) {
      if (value === undefined) continue;
      for (const item of Array.isArray(value) ? value : [value]) url.searchParams.append(key, String(item));
    }
    return url.toString();
  }

  /** Sends a request and returns the envelope's `data` (or the whole body for lists with pagination). */
  async request<T = unknown>(method: string, path: string, options: RequestOptions = {}): Promise<T> {
    const envelope = await this.send(method, path, options);
    return (envelope as { data: T }).data;
  }

  /** Sends a request and returns the parsed JSON envelope. */
  async send(method: string, path: string, options: RequestOptions = {}): Promise<unknown> {
    const headers: Record<string, string> = { accept: 'application/json', ...options.headers };
    if (options.auth !== false && this.settings.apiKey) headers.authorization = `Bearer ${this.settings.apiKey}`;
    if (options.scoped !== false) {
      if (this.settings.project) headers['x-cms-project'] = this.settings.project;
      if (this.settings.environment) headers['x-cms-environment'] = this.settings.environment;
    }
    let body: string | FormData | undefined;
    if (options.form) body = options.form;
    else if (options.body !== undefined) {
      body = JSON.stringify(options.body);
      headers['content-type'] = 'application/json';
    }
    const url = this.url(path, options.query);
    const retries = this.settings.retries ?? 4;
    for (let attempt = 0; ; attempt++) {
      let response: Response;
      try {
        response = await fetch(url, {
          method,
          headers,
          body: body ?? null,
          signal: AbortSignal.timeout(this.settings.timeoutMs ?? 60_000),
        });
      } catch (error) {
        const cause = (error as { cause?: { code?: string } }).cause?.code ?? (error as Error).name;
        throw new CliError('SERVER_UNREACHABLE', `Cannot reach the server at ${this.settings.serverUrl} (${cause}).`, {
          exitCode: EXIT.failure,
          hint: 'Check that the server is running and that --server-url (or CMS_SERVER_URL) points at it.',
          details: { serverUrl: this.settings.serverUrl, cause },
        });
      }
      if ((response.status === 429 || response.status === 503) && attempt < retries) {
        const waitMs = retryWait(response, attempt);
        await response.arrayBuffer().catch(() => undefined);
        this.settings.onRetry?.({ attempt: attempt + 1, waitMs, status: response.status });
        await new Promise((done) => setTimeout(done, waitMs));
        continue;
      }
      const text = await response.text();
      let parsed: unknown = null;
      if (text) {
        try {
          parsed = JSON.parse(text);
        } catch {
          parsed = null;
        }
      }
      if (!response.ok) {
        const error = (parsed as { error?: Record<string, unknown> } | null)?.error;
        throw new ApiError(
          String(error?.code ?? `HTTP_${response.status}`),
          response.status,
          String(error?.message ?? (text.slice(0, 200) || response.statusText)),
          (error?.details as Record<string, unknown>) ?? {},
          error?.requestId as string | undefined,
        );
      }
      return parsed;
    }
  }
}
