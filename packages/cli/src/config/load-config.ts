/**
 * Finds and loads `cms.config.ts|mts|mjs|js` with jiti (no build step for the user; `@cms/core` and
 * `@cms/cli` resolve to the CLI's own copies so `npx cms` needs nothing installed), turns it into
 * core's config shape, resolves it per environment with core's `resolveConfigSchema`, and reports a
 * bad config by file, line and field.
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { CmsConfig, ResolvedConfigSchema, ResolvedSchema, SchemaType } from '@cms/core';
// The config and schema entry points, not the whole of core: its route schemas cost every command startup time.
import { ConfigError, resolveConfigSchema } from '@cms/core/config';
import { validateResolvedSchema } from '@cms/core/schema';
import { createJiti } from 'jiti';
import { CliError, EXIT } from '../cli/exit-codes.js';
import { withLocaleFolders } from '../sync/file-naming.js';
import type { LoadedConfig, PlainConfig } from './config-types.js';
import { locateField } from './locate-field.js';
import { normalizeTypes } from './normalize-schema.js';

export const CONFIG_FILES = ['cms.config.ts', 'cms.config.mts', 'cms.config.mjs', 'cms.config.js'];

/** The config file in `dir` or the nearest parent folder, or undefined. */
export function findConfigFile(dir: string): string | undefined {
  let current = resolve(dir);
  for (;;) {
    for (const name of CONFIG_FILES) {
      const candidate = join(current, name);
      if (existsSync(candidate)) return candidate;
    }
    const parent = dirname(current);
    if (parent === current) return undefined;
    current = parent;
  }
}

function configError(file: string, line: number | undefined, field: string | undefined, message: string): CliError {
  const where = `${file}${line ? `:${line}` : ''}`;
  return new CliError('CONFIG_INVALID', `${where}: ${field ? `${field}: ` : ''}${message}`, {
    exitCode: EXIT.usage,
    hint: 'Fix the config file and run the command again.',
    details: { file, ...(line ? { line } : {}), ...(field ? { field } : {}) },
  });
}

function lineOfError(error: unknown, file: string): number | undefined {
  const e = error as { loc?: { line?: number }; lineNumber?: number; stack?: string; message?: string };
  if (typeof e?.loc?.line === 'number') return e.loc.line;
  if (typeof e?.lineNumber === 'number') return e.lineNumber;
  const escaped = file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const inStack = e?.stack?.match(new RegExp(`${escaped}:(\\d+)`));
  if (inStack?.[1]) return Number(inStack[1]);
  const inMessage = String(e?.message ?? '').match(/\((\d+):(\d+)\)/);
  return inMessage?.[1] ? Number(inMessage[1]) : undefined;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A type of either form as core's ContentType (`schema` holds the wire form). */
function asContentTypes(
  types: unknown,
): Array<{ name: string; directory: string; localized: boolean; fields: object; schema: SchemaType }> {
  const list = Array.isArray(types)
    ? types
    : isRecord(types)
      ? Object.entries(types).map(([name, t]) => ({ name, ...(isRecord(t) ? t : {}) }))
      : [];
  const plain = list.filter((t) => !(isRecord(t) && isRecord(t.schema)));
  const normalized = normalizeTypes(plain as never).types;
  let next = 0;
  return list.map((t) => {
    const schema =
      isRecord(t) && isRecord(t.schema) ? (t.schema as unknown as SchemaType) : (normalized[next++] as SchemaType);
    return { name: schema?.name, directory: schema?.directory, localized: schema?.localized, fields: {}, schema };
  });
}

/** Either form as core's CmsConfig. */
function toCoreConfig(raw: PlainConfig): CmsConfig {
  const types = asContentTypes(raw.types);
  const locales = Array.isArray(raw.locales)
    ? { default: raw.locales[0] ?? 'en', supported: raw.locales }
    : isRecord(raw.locales)
      ? (raw.locales as { default: string; supported: string[] })
      : { default: 'en', supported: ['en'] };
  const environments: Record<string, { extends?: string; types?: never }> = {};
  for (const [name, env] of Object.entries(raw.environments ?? {})) {
    environments[name] = {
      ...(env?.extends ? { extends: env.extends } : {}),
      ...(env?.types ? { types: asContentTypes(env.types) as never } : {}),
    };
  }
  return {
    project: raw.project,
    environment: raw.environment,
    types: types as never,
    locales,
    contentDirectories: { ...(raw.contentDirectories ?? {}) },
    environments,
  };
}

/** Loads, converts and validates the config file. */
export async function loadConfigFile(file: string): Promise<LoadedConfig> {
  const source = readFileSync(file, 'utf8');
  let loaded: unknown;
  try {
    const jiti = createJiti(import.meta.url, {
      tsconfigPaths: true,
      moduleCache: false,
      fsCache: false,
      alias: {
        '@cms/core/config': fileURLToPath(import.meta.resolve('@cms/core/config')),
        '@cms/core': fileURLToPath(import.meta.resolve('@cms/core')),
        '@cms/cli': fileURLToPath(new URL('../index.js', import.meta.url)),
      },
    });
    loaded = await jiti.import(file, { default: true });
  } catch (error) {
    throw configError(file, lineOfError(error, file), undefined, (error as Error)?.message ?? String(error));
  }
  if (!isRecord(loaded)) {
    throw configError(file, undefined, undefined, 'must export a config: export default defineConfig({ ... })');
  }
  const raw = loaded as unknown as PlainConfig;
  const core = toCoreConfig(raw);
  const check = (schema: ResolvedSchema, prefix: string, base: string[] = []): void => {
    const result = validateResolvedSchema(schema, { baseTypeNames: base });
    if (result.ok) return;
    const [path, message] = Object.entries(result.fields)[0] as [string, string];
    throw configError(file, locateField(source, schema, path), path.replace(/^resolvedSchema\.types/, prefix), message);
  };
  const baseTypes = core.types.map((t) => t.schema);
  check({ types: baseTypes }, 'types');
  for (const [name, env] of Object.entries(core.environments)) {
    if (env.types)
      check(
        { types: env.types.map((t) => t.schema) },
        `environments.${name}.types`,
        baseTypes.map((t) => t.name),
      );
  }
  const cache = new Map<string, ResolvedConfigSchema>();
  const resolveFor = (environment: string): ResolvedConfigSchema => {
    let resolved = cache.get(environment);
    if (!resolved) {
      try {
        resolved = resolveConfigSchema(core, environment);
      } catch (error) {
        if (!(error instanceof ConfigError)) throw error;
        const field = Object.keys(error.fields)[0];
        throw configError(file, undefined, field, error.message);
      }
      cache.set(environment, resolved);
    }
    return resolved;
  };
  const dir = dirname(file);
  const localeFolders = readLocaleFolders(file, raw.localeFolders);
  if (raw.markDefaultLocale !== undefined && typeof raw.markDefaultLocale !== 'boolean') {
    throw configError(file, undefined, 'markDefaultLocale', 'must be true or false');
  }
  const naming = {
    // defineConfig fills in locales it was not given, and says whether it was; a plain object lists them or not.
    declared: (raw as { localesDeclared?: boolean }).localesDeclared ?? raw.locales !== undefined,
    ...(raw.markDefaultLocale === false ? { markDefaultLocale: false } : {}),
  };
  return {
    file,
    dir,
    source,
    serverUrl: typeof raw.serverUrl === 'string' ? raw.serverUrl : undefined,
    project: core.project,
    environment: core.environment,
    locales: [core.locales.default, ...core.locales.supported.filter((l) => l !== core.locales.default)],
    contentRoot: dir,
    resolve: resolveFor,
    localTypes(environment) {
      const types = resolveFor(environment).effectiveSchema.types.map((type) => ({
        ...type,
        directory: core.contentDirectories[type.name] ?? type.directory,
      }));
      return withLocaleFolders(types, localeFolders, [core.locales.default, ...core.locales.supported], naming);
    },
  };
}

function readLocaleFolders(file: string, value: unknown): string[] {
  if (value === undefined) return [];
  if (!Array.isArray(value) || value.some((v) => typeof v !== 'string')) {
    throw configError(file, undefined, 'localeFolders', "must be a list of folders, e.g. ['docs']");
  }
  return value.map((v: string) => v.replace(/^\.?\/+|\/+$/g, ''));
}
