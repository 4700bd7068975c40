/**
 * Turns a config into the body of `PUT /api/v1/schema/sync` for one environment, and the effective
 * schema and hash that environment will have in force (the hash writes send as X-CMS-Schema-Hash).
 */

import type { ResolvedSchema } from '../schema/field-types.js';
import { type SchemaValidation, validateResolvedSchema } from '../schema/schema-definition.js';
import { computeSchemaHash } from '../schema/schema-hash.js';
import { mergeSchemaLayers } from '../schema/schema-overlay.js';
import type { CmsConfig, EnvironmentConfig, LocalesConfig } from './define-config.js';
import type { ContentType } from './define-type.js';

/** One environment's schema, resolved from the config. */
export interface ResolvedConfigSchema {
  environment: string;
  /** The environment it extends, when the config says so. */
  extends: string | null;
  /** What to sync: the whole schema, or only the overlay layer when the environment extends another. */
  resolvedSchema: ResolvedSchema;
  /** Hash of `resolvedSchema`: the `schemaHash` of the sync body. */
  schemaHash: string;
  /** The schema in force once synced: the layers of the `extends` chain merged. */
  effectiveSchema: ResolvedSchema;
  /** Hash of `effectiveSchema`: send it as X-CMS-Schema-Hash on writes. */
  effectiveSchemaHash: string;
  locales: LocalesConfig;
  /** The config as plain JSON, stored by the server for audit (`rawConfigSnapshot`). */
  rawConfigSnapshot: Record<string, unknown>;
}

/** The body of `PUT /api/v1/schema/sync`. */
export interface SchemaSyncBody {
  rawConfigSnapshot: Record<string, unknown>;
  resolvedSchema: ResolvedSchema;
  schemaHash: string;
}

/** Thrown when the config does not resolve: a cycle, an unknown base, or an invalid schema. */
export class ConfigError extends Error {
  override readonly name = 'ConfigError';
  constructor(
    message: string,
    readonly fields: Record<string, string> = {},
  ) {
    super(message);
  }
}

function toSchema(types: readonly ContentType[]): ResolvedSchema {
  return { types: types.map((type) => type.schema) };
}

/** The layers of an environment, root first: the base `types`, then each overlay down the chain. */
function layersOf(config: CmsConfig, environment: string): { layers: ResolvedSchema[]; own: ResolvedSchema } {
  const chain: [string, EnvironmentConfig | undefined][] = [];
  const seen = new Set<string>();
  let name: string | undefined = environment;
  while (name !== undefined) {
    if (seen.has(name)) throw new ConfigError(`environments: ${[...seen, name].join(' -> ')} is a cycle`);
    seen.add(name);
    const env: EnvironmentConfig | undefined = config.environments[name];
    if (!env && name !== environment) {
      // A base the config does not describe holds the base types.
      chain.push([name, undefined]);
      break;
    }
    chain.push([name, env]);
    name = env?.extends;
  }
  chain.reverse();
  const [root, ...rest] = chain;
  const rootTypes = [...config.types];
  const rootOverlay = root?.[1]?.types ?? [];
  const layers = [mergeSchemaLayers([toSchema(rootTypes), toSchema(rootOverlay)])];
  for (const [, env] of rest) layers.push(toSchema(env?.types ?? []));
  const own = layers[layers.length - 1] ?? { types: [] };
  return { layers, own };
}

function assertValid(validation: SchemaValidation, environment: string): void {
  if (validation.ok) return;
  const first = Object.entries(validation.fields)[0];
  throw new ConfigError(
    `the schema of environment ${JSON.stringify(environment)} is invalid: ${first?.[0]} ${first?.[1]}`,
    validation.fields,
  );
}

/**
 * Resolves the config for one environment (defaults to the config's `environment`, else
 * `production`), checking the result with core's `validateResolvedSchema`.
 * @example
 * const { resolvedSchema, schemaHash, rawConfigSnapshot } = resolveConfigSchema(config, 'preview');
 */
export function resolveConfigSchema(config: CmsConfig, environment?: string): ResolvedConfigSchema {
  const name = environment ?? config.environment ?? 'production';
  const { layers, own } = layersOf(config, name);
  const effectiveSchema = mergeSchemaLayers(layers);
  const base = mergeSchemaLayers(layers.slice(0, -1));
  assertValid(validateResolvedSchema(own, { baseTypeNames: base.types.map((type) => type.name) }), name);
  assertValid(validateResolvedSchema(effectiveSchema), name);
  const env = config.environments[name];
  return {
    environment: name,
    extends: env?.extends ?? null,
    resolvedSchema: own,
    schemaHash: computeSchemaHash(own),
    effectiveSchema,
    effectiveSchemaHash: computeSchemaHash(effectiveSchema),
    locales: env?.locales ?? config.locales,
    rawConfigSnapshot: configSnapshot(config),
  };
}

/** The sync body for one environment. */
export function schemaSyncBody(config: CmsConfig, environment?: string): SchemaSyncBody {
  const { rawConfigSnapshot, resolvedSchema, schemaHash } = resolveConfigSchema(config, environment);
  return { rawConfigSnapshot, resolvedSchema, schemaHash };
}

/** The config as JSON: types in wire form, the rest as declared. */
export function configSnapshot(config: CmsConfig): Record<string, unknown> {
  return {
    project: config.project ?? null,
    environment: config.environment ?? null,
    types: config.types.map((type) => type.schema),
    locales: config.locales,
    contentDirectories: config.contentDirectories,
    environments: Object.fromEntries(
      Object.entries(config.environments).map(([name, env]) => [
        name,
        {
          extends: env.extends ?? null,
          types: (env.types ?? []).map((type) => type.schema),
          ...(env.locales ? { locales: env.locales } : {}),
        },
      ]),
    ),
  };
}
