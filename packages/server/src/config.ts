import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { isIP } from 'node:net';
import { join, resolve } from 'node:path';

/** Every setting of the server, read from environment variables once at start (decisions.md §1). */
export interface ServerConfig {
  port: number;
  host: string;
  publicUrl: string;
  databaseUrl: string | null;
  databasePoolMax: number;
  dataDir: string;
  /** Seconds between the embedded database's vacuum/analyze checks; 0 turns them off (PGlite only). */
  pgliteMaintenanceIntervalSeconds: number;
  /** PostgreSQL's shared_buffers of the embedded database, in MiB (PGlite only). */
  pgliteSharedBuffersMb: number;
  mediaDriver: 'fs' | 's3';
  /** Seconds between polls of the media purge queue; 0 means this process purges only its own single deletes. */
  mediaPurgeIntervalSeconds: number;
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
  webhookAllowPrivate: boolean;
  webhookCaFile: string | null;
  maxBodyBytes: number;
  maxUploadBytes: number;
  logLevel: string;
  /**
   * Which proxies to believe about the client address (X-Forwarded-For): none (false), every
   * hop (true), or the listed addresses/CIDR ranges. The address feeds login backoff and session lists.
   */
  trustProxy: boolean | string[];
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
 * an idle server's memory; 32 MB holds the indexes and hot rows of typical reads (docs/operations.md).
 */
export const DEFAULT_PGLITE_SHARED_BUFFERS_MB = 32;
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

  const config: ServerConfig = {
    port,
    host,
    publicUrl,
    databaseUrl,
    databasePoolMax: readInt(env, 'DATABASE_POOL_MAX', 10, 1, 1000),
    dataDir,
    pgliteMaintenanceIntervalSeconds: readInt(env, 'CMS_PGLITE_MAINTENANCE_INTERVAL_SECONDS', 60, 0, 86_400),
    pgliteSharedBuffersMb: readInt(env, 'CMS_PGLITE_SHARED_BUFFERS_MB', DEFAULT_PGLITE_SHARED_BUFFERS_MB, 1, 16_384),
    mediaDriver,
    mediaPurgeIntervalSeconds: readInt(env, 'CMS_MEDIA_PURGE_INTERVAL_SECONDS', 30, 0, 86_400),
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
    webhookAllowPrivate: readBool(env, 'CMS_WEBHOOK_ALLOW_PRIVATE', false),
    webhookCaFile: env.CMS_WEBHOOK_CA_FILE || null,
    maxBodyBytes: readInt(env, 'CMS_MAX_BODY_BYTES', MIB, 1024, 1024 * MIB),
    maxUploadBytes: readInt(env, 'CMS_MAX_UPLOAD_BYTES', 100 * MIB, 1024, 1024 * 1024 * MIB),
    logLevel: readEnum(env, 'LOG_LEVEL', LOG_LEVELS, 'info'),
    trustProxy: readTrustProxy(env, 'CMS_TRUST_PROXY'),
  };
  if (mediaDriver === 's3' && !config.s3.bucket) {
    throw new ConfigError('CMS_MEDIA_DRIVER=s3 needs S3_BUCKET (and usually S3_ENDPOINT and credentials).');
  }
  return config;
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
