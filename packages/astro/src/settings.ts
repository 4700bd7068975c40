/**
 * Where a loader reads from: options, else the `CMS_*` environment variables (decisions.md §8 "Astro"),
 * and the errors it raises, each naming the collection, the content type and the server, so a failed
 * build says which collection and which server to look at.
 */
import { type CmsClient, createClient, isCmsError } from '@cms/sdk';

/** The connection options shared by `cmsLoader` and `cmsLiveLoader`. */
export interface ConnectionOptions {
  /** Default `CMS_SERVER_URL`. */
  serverUrl?: string;
  /** Default `CMS_API_KEY`. */
  apiKey?: string;
  /** Default `CMS_PROJECT`, else `default`. */
  project?: string;
  /** Default `CMS_ENVIRONMENT`, else `production`. */
  environment?: string;
  /** The fetch to use (tests, proxies). */
  fetch?: typeof fetch;
}

/** The resolved connection settings. */
export interface Target {
  serverUrl: string;
  apiKey: string | undefined;
  project: string;
  environment: string;
}

function env(name: string): string | undefined {
  const value = typeof process === 'undefined' ? undefined : process.env[name];
  return value === '' ? undefined : value;
}

/** The settings of a loader, or an error saying which one is missing. */
export function resolveTarget(options: ConnectionOptions, what: string): Target {
  const serverUrl = options.serverUrl ?? env('CMS_SERVER_URL');
  if (!serverUrl) throw new Error(`${what}: set serverUrl or CMS_SERVER_URL (such as http://127.0.0.1:4000).`);
  return {
    serverUrl,
    apiKey: options.apiKey ?? env('CMS_API_KEY'),
    project: options.project ?? env('CMS_PROJECT') ?? 'default',
    environment: options.environment ?? env('CMS_ENVIRONMENT') ?? 'production',
  };
}

/** An SDK client for the target. */
export function clientFor(target: Target, options: ConnectionOptions): CmsClient {
  return createClient({
    baseUrl: target.serverUrl,
    ...(target.apiKey ? { apiKey: target.apiKey } : {}),
    project: target.project,
    environment: target.environment,
    ...(options.fetch ? { fetch: options.fetch } : {}),
  });
}

/** What a missing scope asks of the key, for the messages below. */
const SCOPE_HINTS: Record<string, string> = {
  'schema.list': 'schema:read (the collection schema is built from the CMS schema; or pass schema: false)',
  content: 'content:read (and content:read:draft for draft: true)',
};

/** An error of a loader: its message names the collection and the server; `code` is the CMS's, if any. */
export type LoaderError = Error & { code?: string };

/**
 * An error naming where it happened: `cmsLoader(posts, type "post") reading http://127.0.0.1:4000
 * (project default, environment production): FORBIDDEN ...`. A CMS refusal keeps its `code` and says
 * which scope the key needs.
 */
export function loaderError(
  where: string,
  target: Target,
  step: keyof typeof SCOPE_HINTS,
  error: unknown,
): LoaderError {
  const place = `${where} reading ${target.serverUrl} (project ${target.project}, environment ${target.environment})`;
  if (isCmsError(error)) {
    const refused = error.code === 'FORBIDDEN' || error.code === 'UNAUTHORIZED';
    const hint = refused ? ` The key needs ${SCOPE_HINTS[step]}.` : '';
    return Object.assign(new Error(`${place}: ${error.code} ${error.message}${hint}`, { cause: error }), {
      code: error.code,
    });
  }
  return new Error(`${place}: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
}

/** True for a refusal of the key (it lacks a scope), as opposed to a server or network failure. */
export function isRefusal(error: unknown): boolean {
  const code = (error as LoaderError | null)?.code;
  return code === 'FORBIDDEN' || code === 'UNAUTHORIZED';
}
