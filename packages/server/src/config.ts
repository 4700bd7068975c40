import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { isIP } from 'node:net';
import { join, resolve } from 'node:path';
import { readSsoSettings, SsoSettingError, type SsoSettings } from './sso-settings.js';

/** Lifetime of a preview token unless CMS_PREVIEW_TOKEN_TTL_SECONDS says otherwise (decisions.md §5). */
const DEFAULT_PREVIEW_TOKEN_TTL_SECONDS = 600;

/** Every setting of the server, read from environment variables once at start (decisions.md §1). */
export interface ServerConfig {
  port: number;
  host: string;
  publicUrl: string;
  /** Whether `publicUrl` was configured (CMS_PUBLIC_URL), not made from HOST and PORT; unset counts as configured. */
  publicUrlConfigured?: boolean;
  databaseUrl: string | null;
  databasePoolMax: number;
  dataDir: string;
  /** Seconds between the embedded database's vacuum/analyze checks; 0 turns them off (PGlite only). */
  pgliteMaintenanceIntervalSeconds: number;
  /** PostgreSQL's shared_buffers of the embedded database, in MiB (PGlite only). */
  pgliteSharedBuffersMb: number;
  /** Let V8 optimise PGlite's WebAssembly with TurboFan too (PGlite only; off: its baseline compiler alone). */
  pgliteOptimizingCompiler: boolean;
  mediaDriver: 'fs' | 's3';
  /** Seconds between polls of the media purge queue; 0 means this process purges only its own single deletes. */
  mediaPurgeIntervalSeconds: number;
  /** `CMS_RELEASE_POLL_INTERVAL_SECONDS`: the due-release poller's period; 0 runs no poller here. */
  releasePollIntervalSeconds: number;
  /** `CMS_AUDIT_RETENTION_DAYS`: audit entries older than this are removed; 0 keeps them forever. */
  auditRetentionDays: number;
  /** `CMS_AUDIT_RETENTION_INTERVAL_SECONDS`: how often retention runs here; 0 runs none in this process. */
  auditRetentionIntervalSeconds: number;
  /** `CMS_CHANGES_RETENTION_DAYS`: change feed entries older than this are removed; 0 keeps them forever. */
  changesRetentionDays: number;
  /** `CMS_CHANGES_RETENTION_INTERVAL_SECONDS`: how often change feed retention runs here; 0 runs none. */
  changesRetentionIntervalSeconds: number;
  /** Image transforms running at once (each holds one original and libvips' buffers). */
  imageTransformConcurrency: number;
  /** Image transforms that may wait for a slot; one more is answered SERVICE_UNAVAILABLE. */
  imageTransformQueue: number;
  s3: {
    endpoint: string | null;
    region: string;
    bucket: string | null;
    accessKeyId: string | null;
    secretAccessKey: string | null;
    forcePathStyle: boolean;
  };
  adminEmail: string | null;
  adminPassword: string | null;
  defaultProject: string;
  secret: string;
  previewTokenSecret: string | null;
  /** Seconds a preview token is valid (decisions.md §5: 10 minutes); shorter for tests of renewal. */
  previewTokenTtlSeconds: number;
  webhookAllowPrivate: boolean;
  webhookCaFile: string | null;
  maxBodyBytes: number;
  maxUploadBytes: number;
  /** Milliseconds a client has to send a whole request, headers and body (uploads included); 0 = no limit. */
  requestTimeoutMs: number;
  /** Milliseconds a client has to send the request line and headers. */
  headersTimeoutMs: number;
  /** Milliseconds an idle keep-alive connection stays open between requests. */
  keepAliveTimeoutMs: number;
  logLevel: string;
  /**
   * Which proxies to believe about the client address (X-Forwarded-For): none (false), every
   * hop (true), or the listed addresses/CIDR ranges. The address feeds login backoff and session lists.
   */
  trustProxy: boolean | string[];
  /**
   * Requests per minute one client address may make to each unauthenticated command route (sign-in,
   * setup, invite accept, single sign-on, command-line sign-in); 0 turns the limit off.
   */
  rateLimitPerMinute: number;
  /** CMS_REQUIRE_MFA: `admins` makes administrators enrol a second factor before anything else (decisions.md §8). */
  requireMfa: 'off' | 'admins';
  /** `NODE_ENV=production`: no development conveniences (dev key, CMS_DEV), JSON logs unless told otherwise. */
  production: boolean;
  /** CMS_DEV: local development; webhooks may target loopback and self-signed receivers. Never with production. */
  dev: boolean;
  /** CMS_DEV_KEY: print a development key at the first start of the embedded default (never in production). */
  devKey: boolean;
  /** LOG_FORMAT: `json` lines, `pretty` lines for a person, or `auto` (pretty on a terminal outside production). */
  logFormat: 'json' | 'pretty' | 'auto';
  /** OIDC and SAML sign-in providers (`CMS_OIDC_PROVIDERS`, `CMS_SAML_PROVIDERS`; docs/access-control.md). */
  sso: SsoSettings;
  /** Budget of the published read cache in bytes (LRU beyond it); 0 turns the cache off. */
  readCacheBytes: number;
  /** `Cache-Control: max-age` of API-key published reads; 0 sends `no-cache` (revalidate with ETag). */
  httpCacheMaxAgeSeconds: number;
  /** `stale-while-revalidate` of API-key published reads (with a max-age above 0); 0 omits it. */
  httpCacheStaleWhileRevalidateSeconds: number;
}

/** A setting that is missing or malformed; the server refuses to start and says which. */
export class ConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ConfigError';
  }
}

const MIB = 1024 * 1024;
/**
 * The embedded database's buffer cache: PGlite's default (128 MB) is touched at start, about 120 MiB of
 * an idle server's memory. 16 MB holds the indexes and hot rows of a small site's reads; pages outside it
 * come from the OS's file cache. 32 MB idled 12-19 MiB higher (docs/operations.md, docs/benchmarks.md 13).
 */
export const DEFAULT_PGLITE_SHARED_BUFFERS_MB = 16;
const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];

type Env = Record<string, string | undefined>;

/** Reads and validates the configuration; throws ConfigError naming the bad variable. */
export function loadConfig(env: Env = process.env): ServerConfig {
  const port = readInt(env, 'PORT', 4000, 0, 65535);
  const host = env.HOST || '127.0.0.1';
  const dataDir = resolve(env.CMS_DATA_DIR || './.cms');
  const databaseUrl = env.DATABASE_URL || null;
  const embedded = databaseUrl === null;
  const mediaDriver = readEnum(env, 'CMS_MEDIA_DRIVER', ['fs', 's3'] as const, 'fs');
  const publicUrl = stripTrailingSlash(env.CMS_PUBLIC_URL || `http://${host}:${port}`);
  assertUrl('CMS_PUBLIC_URL', publicUrl);

  const secret = env.CMS_SECRET || (embedded ? readOrCreateSecret(dataDir, 'secret') : null);
  if (!secret) throw new ConfigError('CMS_SECRET is required when DATABASE_URL is set: set it to 32+ random bytes.');
  if (secret.length < 32) throw new ConfigError('CMS_SECRET must be at least 32 characters long.');
  // `off` turns preview tokens off (PREVIEW_TOKEN_UNAVAILABLE) where a secret would be generated.
  const previewTokenSecret =
    env.CMS_PREVIEW_TOKEN_SECRET === 'off'
      ? null
      : env.CMS_PREVIEW_TOKEN_SECRET || (embedded ? readOrCreateSecret(dataDir, 'preview-token-secret') : null);
  if (env.CMS_PREVIEW_TOKEN_SECRET && previewTokenSecret !== null && previewTokenSecret.length < 32) {
    throw new ConfigError(
      'CMS_PREVIEW_TOKEN_SECRET must be at least 32 characters long (it signs preview tokens); or set it to "off".',
    );
  }

  const config: ServerConfig = {
    port,
    host,
    publicUrl,
    publicUrlConfigured: Boolean(env.CMS_PUBLIC_URL),
    databaseUrl,
    databasePoolMax: readInt(env, 'DATABASE_POOL_MAX', 10, 1, 1000),
    dataDir,
    pgliteMaintenanceIntervalSeconds: readInt(env, 'CMS_PGLITE_MAINTENANCE_INTERVAL_SECONDS', 60, 0, 86_400),
    pgliteSharedBuffersMb: readInt(env, 'CMS_PGLITE_SHARED_BUFFERS_MB', DEFAULT_PGLITE_SHARED_BUFFERS_MB, 1, 16_384),
    pgliteOptimizingCompiler: readBool(env, 'CMS_PGLITE_OPTIMIZING_COMPILER', false),
    mediaDriver,
    mediaPurgeIntervalSeconds: readInt(env, 'CMS_MEDIA_PURGE_INTERVAL_SECONDS', 30, 0, 86_400),
    releasePollIntervalSeconds: readInt(env, 'CMS_RELEASE_POLL_INTERVAL_SECONDS', 1, 0, 60),
    auditRetentionDays: readInt(env, 'CMS_AUDIT_RETENTION_DAYS', 400, 0, 36_500),
    auditRetentionIntervalSeconds: readInt(env, 'CMS_AUDIT_RETENTION_INTERVAL_SECONDS', 3600, 0, 604_800),
    changesRetentionDays: readInt(env, 'CMS_CHANGES_RETENTION_DAYS', 30, 0, 36_500),
    changesRetentionIntervalSeconds: readInt(env, 'CMS_CHANGES_RETENTION_INTERVAL_SECONDS', 3600, 0, 604_800),
    imageTransformConcurrency: readInt(env, 'CMS_IMAGE_TRANSFORM_CONCURRENCY', 2, 1, 64),
    imageTransformQueue: readInt(env, 'CMS_IMAGE_TRANSFORM_QUEUE', 100, 0, 10_000),
    s3: {
      endpoint: env.S3_ENDPOINT || null,
      region: env.S3_REGION || 'us-east-1',
      bucket: env.S3_BUCKET || null,
      accessKeyId: env.S3_ACCESS_KEY_ID || null,
      secretAccessKey: env.S3_SECRET_ACCESS_KEY || null,
      forcePathStyle: readBool(env, 'S3_FORCE_PATH_STYLE', false),
    },
    adminEmail: env.CMS_ADMIN_EMAIL || null,
    adminPassword: env.CMS_ADMIN_PASSWORD || null,
    defaultProject: env.CMS_DEFAULT_PROJECT || 'default',
    secret,
    previewTokenSecret,
    previewTokenTtlSeconds: readInt(env, 'CMS_PREVIEW_TOKEN_TTL_SECONDS', DEFAULT_PREVIEW_TOKEN_TTL_SECONDS, 5, 86_400),
    webhookAllowPrivate: readBool(env, 'CMS_WEBHOOK_ALLOW_PRIVATE', false),
    webhookCaFile: env.CMS_WEBHOOK_CA_FILE || null,
    maxBodyBytes: readInt(env, 'CMS_MAX_BODY_BYTES', MIB, 1024, 1024 * MIB),
    maxUploadBytes: readInt(env, 'CMS_MAX_UPLOAD_BYTES', 100 * MIB, 1024, 1024 * 1024 * MIB),
    requestTimeoutMs: readInt(env, 'CMS_REQUEST_TIMEOUT_MS', 120_000, 0, 3_600_000),
    headersTimeoutMs: readInt(env, 'CMS_HEADERS_TIMEOUT_MS', 10_000, 100, 600_000),
    keepAliveTimeoutMs: readInt(env, 'CMS_KEEP_ALIVE_TIMEOUT_MS', 72_000, 100, 3_600_000),
    logLevel: readEnum(env, 'LOG_LEVEL', LOG_LEVELS, 'info'),
    trustProxy: readTrustProxy(env, 'CMS_TRUST_PROXY'),
    rateLimitPerMinute: readInt(env, 'CMS_RATE_LIMIT_PER_MINUTE', 30, 0, 1_000_000),
    requireMfa: readEnum(env, 'CMS_REQUIRE_MFA', ['off', 'admins'] as const, 'off'),
    ...readDevelopmentSettings(env, embedded),
    sso: readSso(env, embedded),
    readCacheBytes: readInt(env, 'CMS_READ_CACHE_BYTES', 64 * MIB, 0, 64 * 1024 * MIB),
    httpCacheMaxAgeSeconds: readInt(env, 'CMS_HTTP_CACHE_MAX_AGE_SECONDS', 0, 0, 31_536_000),
    httpCacheStaleWhileRevalidateSeconds: readInt(
      env,
      'CMS_HTTP_CACHE_STALE_WHILE_REVALIDATE_SECONDS',
      0,
      0,
      31_536_000,
    ),
  };
  if (config.requestTimeoutMs > 0 && config.headersTimeoutMs > config.requestTimeoutMs) {
    throw new ConfigError('CMS_HEADERS_TIMEOUT_MS must not be larger than CMS_REQUEST_TIMEOUT_MS.');
  }
  if (mediaDriver === 's3' && !config.s3.bucket) {
    throw new ConfigError('CMS_MEDIA_DRIVER=s3 needs S3_BUCKET (and usually S3_ENDPOINT and credentials).');
  }
  return config;
}

/** Development conveniences, refused (or off) in production so a copied setting cannot open them there. */
function readDevelopmentSettings(env: Env, embedded: boolean) {
  const production = env.NODE_ENV === 'production';
  const dev = readBool(env, 'CMS_DEV', false);
  if (dev && production) throw new ConfigError('CMS_DEV cannot be set with NODE_ENV=production.');
  const devKey = readBool(env, 'CMS_DEV_KEY', true) && embedded && !production;
  const logFormat = readEnum(env, 'LOG_FORMAT', ['json', 'pretty', 'auto'] as const, 'auto');
  return { production, dev, devKey, logFormat };
}

function readSso(env: Env, embedded: boolean): SsoSettings {
  try {
    return readSsoSettings(env, readInt(env, 'CMS_SSO_TIMEOUT_SECONDS', 10, 1, 120), embedded);
  } catch (error: unknown) {
    if (error instanceof SsoSettingError) throw new ConfigError(error.message);
    throw error;
  }
}

function readInt(env: Env, name: string, fallback: number, min: number, max: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < min || value > max) {
    throw new ConfigError(`${name} must be an integer from ${min} to ${max}, got "${raw}".`);
  }
  return value;
}

function readBool(env: Env, name: string, fallback: boolean): boolean {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  if (['true', '1', 'yes'].includes(raw.toLowerCase())) return true;
  if (['false', '0', 'no'].includes(raw.toLowerCase())) return false;
  throw new ConfigError(`${name} must be true or false, got "${raw}".`);
}

/** `true`/`false`, or a comma-separated list of proxy addresses or CIDR ranges. */
function readTrustProxy(env: Env, name: string): boolean | string[] {
  const raw = env[name]?.trim();
  if (raw === undefined || raw === '') return false;
  const fail = (got: string) =>
    new ConfigError(`${name} must be true, false or a list of proxy addresses/CIDR ranges, got "${got}".`);
  if (['true', '1', 'yes'].includes(raw.toLowerCase())) return true;
  if (['false', '0', 'no'].includes(raw.toLowerCase())) return false;
  const entries = raw.split(',').map((entry) => entry.trim());
  for (const entry of entries) {
    const [address = '', bits, ...rest] = entry.split('/');
    const maxBits = isIP(address) === 6 ? 128 : 32;
    const validBits = bits === undefined || (/^\d+$/.test(bits) && Number(bits) <= maxBits);
    if (isIP(address) === 0 || !validBits || rest.length > 0) throw fail(entry);
  }
  return entries;
}

function readEnum<T extends string>(env: Env, name: string, allowed: readonly T[], fallback: T): T {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  if (!(allowed as readonly string[]).includes(raw)) {
    throw new ConfigError(`${name} must be one of ${allowed.join(', ')}, got "${raw}".`);
  }
  return raw as T;
}

function assertUrl(name: string, value: string): void {
  try {
    new URL(value);
  } catch {
    throw new ConfigError(`${name} must be an absolute URL, got "${value}".`);
  }
}

function stripTrailingSlash(url: string): string {
  return url.endsWith('/') ? url.slice(0, -1) : url;
}

/** The embedded default keeps generated secrets in the data dir so sessions survive restarts. */
function readOrCreateSecret(dataDir: string, name: string): string {
  const dir = join(dataDir, 'secrets');
  const file = join(dir, name);
  try {
    return readFileSync(file, 'utf8').trim();
  } catch {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    const value = randomBytes(32).toString('base64url');
    writeFileSync(file, value, { mode: 0o600, flag: 'wx' });
    return value;
  }
}
