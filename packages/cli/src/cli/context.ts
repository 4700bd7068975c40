/**
 * What every command gets: output, prompts, the config (when there is one), the resolved settings
 * and an API client. Missing settings fail with exit 2 (usage) or 4 (no key) naming how to give them.
 */
import { resolve } from 'node:path';
import { type CmsApi, createApi } from '../api/cms-api.js';
import type { LoadedConfig } from '../config/config-types.js';
import { findConfigFile, loadConfigFile } from '../config/load-config.js';
import { credentialKey, loadKey } from './credentials.js';
import { CliError, EXIT, usageError } from './exit-codes.js';
import { Output } from './output.js';
import { isInteractive, type PromptContext } from './prompt.js';
import { envOf, flagOf, type GlobalFlags, resolveSettings, type Settings } from './settings.js';

export interface Context {
  out: Output;
  flags: GlobalFlags;
  prompt: PromptContext;
  env: NodeJS.ProcessEnv;
  cwd: string;
  /** The config, or undefined when none was found (commands that need one call requireConfig). */
  config: LoadedConfig | undefined;
  settings: Settings;
  concurrency: number;
  requireConfig(): LoadedConfig;
  /** Server URL, project and environment, or a usage error naming the flag and variable. */
  target(): { serverUrl: string; project: string; environment: string };
  /** A client with a key (flag, env, or the stored login); exit 4 without one. */
  api(options?: { needsKey?: boolean }): Promise<CmsApi>;
}

export async function createContext(flags: GlobalFlags, env: NodeJS.ProcessEnv = process.env): Promise<Context> {
  const out = new Output({ json: Boolean(flags.json), env });
  const cwd = process.cwd();
  const configFile = flags.config ? resolve(cwd, flags.config) : findConfigFile(cwd);
  if (flags.config && configFile && !(await import('node:fs')).existsSync(configFile)) {
    throw usageError(`The config file ${configFile} does not exist.`, 'Check the --config path.');
  }
  const config = configFile ? await loadConfigFile(configFile) : undefined;
  const settings = resolveSettings(flags, env, config ?? {});
  const concurrency = Math.max(1, Math.min(64, Number(flags.concurrency ?? env.CMS_CONCURRENCY ?? 8) || 8));
  const need = (key: 'serverUrl' | 'project' | 'environment'): string => {
    const value = settings[key];
    if (value) return value;
    throw usageError(
      `No ${key === 'serverUrl' ? 'server URL' : key} is set.`,
      `Pass ${flagOf(key)}, set ${envOf(key)}, or add \`${key}\` to cms.config.ts.`,
    );
  };
  const ctx: Context = {
    out,
    flags,
    env,
    cwd,
    config,
    settings,
    concurrency,
    prompt: { yes: Boolean(flags.yes), interactive: isInteractive(flags.nonInteractive, env) },
    requireConfig() {
      if (config) return config;
      throw usageError(
        'No cms.config.ts (or .mjs/.js) was found in this folder or its parents.',
        'Run `cms init` to create one, or pass --config <file>.',
      );
    },
    target() {
      return { serverUrl: need('serverUrl'), project: need('project'), environment: need('environment') };
    },
    async api(options = {}) {
      const serverUrl = need('serverUrl');
      let apiKey = settings.apiKey;
      if (!apiKey && settings.project && settings.environment) {
        const stored = await loadKey(credentialKey(serverUrl, settings.project, settings.environment), env);
        if (stored?.apiKey) {
          apiKey = stored.apiKey;
          settings.apiKey = apiKey;
          settings.sources.apiKey = stored.store === 'keyring' ? 'keyring' : 'credentials file';
        }
      }
      if (!apiKey && options.needsKey !== false) {
        throw new CliError('NOT_SIGNED_IN', 'No API key for this server, project and environment.', {
          exitCode: EXIT.notSignedIn,
          hint: 'Run `cms login`, or pass --api-key / set CMS_API_KEY.',
        });
      }
      return createApi(
        {
          serverUrl,
          apiKey,
          project: settings.project,
          environment: settings.environment,
          onRetry: ({ attempt, waitMs, status }) =>
            out.log(out.paint('dim', `retry ${attempt} in ${Math.round(waitMs)} ms (server answered ${status})`)),
        },
        concurrency,
      );
    },
  };
  return ctx;
}
