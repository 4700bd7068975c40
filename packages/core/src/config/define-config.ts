/**
 * `defineConfig`: the schema config of a project (`cms.config.ts`), read by the CLI to sync the
 * schema and by the SDK to type content. Environments may add an overlay: types added or changed
 * over the schema of the environment they extend (docs/api.md "Schema overlays").
 * @example
 * export default defineConfig({
 *   project: 'default',
 *   types: [post, author],
 *   locales: { default: 'en', supported: ['en', 'fr'] },
 *   environments: { preview: { extends: 'production', types: [postWithSubtitle] } },
 * });
 */
import type { ContentType } from './define-type.js';

/** Locales of the project: the default one first in `supported`. */
export interface LocalesConfig {
  /** BCP 47 tag of the default locale. */
  default: string;
  /** Every locale content may be written in, the default included. */
  supported: readonly string[];
}

/** One environment's part of the config. */
export interface EnvironmentConfig {
  /**
   * The environment whose schema this one builds on, as on the server. When set, what is synced
   * here is only `types` (the layer); the base's types come from the base.
   */
  extends?: string;
  /** Types added, or replacing fields of the base's types by name. */
  types?: readonly ContentType[];
  /** Locales of this environment, when they differ from the project's. */
  locales?: LocalesConfig;
}

/** What `defineConfig` takes. */
export interface CmsConfigInput<Types extends readonly ContentType[]> {
  /** Project slug; the CLI's `--project` and `CMS_PROJECT` win over it. */
  project?: string;
  /** Default environment; the CLI's `--environment` and `CMS_ENVIRONMENT` win over it. */
  environment?: string;
  /** The base schema: every type of an environment that extends nothing. */
  types: Types;
  locales?: LocalesConfig;
  /**
   * Where each type's files live, relative to the config file, overriding the type's `directory`
   * for the local tree only (the schema keeps the type's `directory`). Keyed by type name.
   */
  contentDirectories?: Partial<Record<Types[number]['name'], string>>;
  /**
   * Folders of the local tree that hold one folder per locale (`['docs']` for `docs/en/...` and
   * `docs/de/...`; `['']` for locale folders at the top). Local only: the schema is not affected.
   */
  localeFolders?: readonly string[];
  /**
   * Not part of the schema: false when the default locale's files carry no locale in their name: no
   * suffix (`about.md` beside `about.fr.md`, as Hugo names them) and no locale folder (`docs/intro.md`
   * beside `docs/fr/intro.md`). Default true (`about.en.md`, `docs/en/intro.md`).
   */
  markDefaultLocale?: boolean;
  /** Per environment: what it extends and its overlay. Environments not named use `types`. */
  environments?: Record<string, EnvironmentConfig>;
}

/** A config as `defineConfig` returns it, with defaults filled in. */
export interface CmsConfig<Types extends readonly ContentType[] = readonly ContentType[]> {
  readonly project: string | undefined;
  readonly environment: string | undefined;
  readonly types: Types;
  readonly locales: LocalesConfig;
  readonly contentDirectories: Readonly<Record<string, string>>;
  readonly localeFolders?: readonly string[];
  readonly markDefaultLocale?: boolean;
  /** Whether the input listed `locales` (then only those are locale suffixes of file names). */
  readonly localesDeclared?: boolean;
  readonly environments: Readonly<Record<string, EnvironmentConfig>>;
}

/** The locales of a project that declares none: the default locale only. */
export const DEFAULT_LOCALES: LocalesConfig = { default: 'en', supported: ['en'] };

/** Declares the project config; `resolveConfigSchema` turns it into what schema sync takes. */
export function defineConfig<const Types extends readonly ContentType[]>(
  input: CmsConfigInput<Types>,
): CmsConfig<Types> {
  const locales = input.locales ?? DEFAULT_LOCALES;
  if (!locales.supported.includes(locales.default)) {
    throw new TypeError(`locales.supported must include the default locale ${JSON.stringify(locales.default)}`);
  }
  const contentDirectories: Record<string, string> = {};
  for (const type of input.types) contentDirectories[type.name] = type.directory;
  Object.assign(contentDirectories, input.contentDirectories);
  return {
    project: input.project,
    environment: input.environment,
    types: input.types,
    locales,
    contentDirectories,
    ...(input.localeFolders ? { localeFolders: input.localeFolders } : {}),
    ...(input.markDefaultLocale !== undefined ? { markDefaultLocale: input.markDefaultLocale } : {}),
    localesDeclared: input.locales !== undefined,
    environments: input.environments ?? {},
  };
}
