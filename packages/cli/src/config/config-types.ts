import type { ResolvedConfigSchema } from '@cms/core';
import type { FileType } from '../sync/file-naming.js';

/**
 * What `cms.config.ts` exports: the result of core's `defineConfig` (types from `defineType`), or the
 * same shape written as a plain object whose types hold field metadata directly (defaults filled).
 */
export interface PlainConfig {
  project?: string;
  environment?: string;
  /** Not part of defineConfig: a server address default for this folder. */
  serverUrl?: string;
  locales?: string[] | { default: string; supported: string[] };
  contentDirectories?: Record<string, string>;
  /**
   * Not part of the schema: folders that hold one folder per locale (`docs` for `docs/en/...` and
   * `docs/de/...`; '' for locale folders at the top of the content root).
   */
  localeFolders?: string[];
  /**
   * Not part of the schema: false when the default locale's files carry no locale in their name: no
   * suffix (`about.md` beside `about.fr.md`, as Hugo names them) and no locale folder (`docs/intro.md`
   * beside `docs/fr/intro.md`). Default true (`about.en.md`, `docs/en/intro.md`).
   */
  markDefaultLocale?: boolean;
  types: unknown[] | Record<string, unknown>;
  environments?: Record<string, { extends?: string; types?: unknown[] | Record<string, unknown> }>;
}

/** The config after loading: where it lives, its settings and the schema per environment. */
export interface LoadedConfig {
  file: string;
  dir: string;
  source: string;
  serverUrl: string | undefined;
  project: string | undefined;
  environment: string | undefined;
  /** Locale tags, the default first. */
  locales: string[];
  /** The folder the type directories are relative to (the config's folder). */
  contentRoot: string;
  /** The schema to sync to an environment and the schema in force there (core's resolveConfigSchema). */
  resolve(environment: string): ResolvedConfigSchema;
  /**
   * The environment's effective types with each directory as it is on disk (contentDirectories applied)
   * and, for a localized type under one of `localeFolders`, where its locale folders are.
   */
  localTypes(environment: string): FileType[];
}
