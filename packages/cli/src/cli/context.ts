/**
 * What every command gets: output, prompts, the config (when there is one), the resolved settings
 * and an API client. Missing settings fail with exit 2 (usage) or 4 (no key) naming how to give them.
 */
import { resolve } from 'node:path';
import { type CmsApi, createApi } from '../api/cms-api.js';
import type { LoadedConfig } from '../config/config-types.js';
import { findConfigFile, loadConfigFile } from '../config/load-config.js';
import { credentialKey, loadKey, storedAccounts } from './credentials.js';
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
  /** `--timeout` per answer and `--wait` for a long operation whose answer was late (api/follow.ts). */
  timing: { timeoutMs: number; waitMs: number };
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
  const concurrency = concurrencyOf(flags, env);
  const timing = {
    timeoutMs: secondsOf(flags.timeout, env.CMS_TIMEOUT, '--timeout', 'CMS_TIMEOUT', DEFAULT_TIMEOUT_S),
    waitMs: secondsOf(flags.wait, env.CMS_WAIT, '--wait', 'CMS_WAIT', DEFAULT_WAIT_S),
  };
  const need = (key: 'serverUrl' | 'project' | 'environment'): string => {
    const value = settings[key];
    if (!value) {
      throw usageError(
        `No ${key === 'serverUrl' ? 'server URL' : key} is set.`,
        `Pass ${flagOf(key)}, set ${envOf(key)}, or add \`${key}\` to cms.config.ts.`,
      );
    }
    if (key === 'serverUrl') assertServerUrl(value, settings.sources.serverUrl ?? 'config');
    return value;
  };
  const ctx: Context = {
    out,
    flags,
    env,
    cwd,
    config,
    settings,
    concurrency,
    timing,
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
        const target = `project "${settings.project}", environment "${settings.environment}"`;
        // Keys are stored per server, project and environment: a typo in one of them looks like "signed out".
        const others = (await storedAccounts(env))
          .filter((a) => a.serverUrl === serverUrl.replace(/\/+$/, ''))
          .map((a) => `${a.project}/${a.environment}`);
        throw new CliError('NOT_SIGNED_IN', `No API key for ${target} at ${serverUrl}.`, {
          exitCode: EXIT.notSignedIn,
          hint: `Run \`cms login\` (it signs in for one server, project and environment), or pass --api-key / set CMS_API_KEY.${
            others.length > 0
              ? ` Keys are stored for this server's ${others.join(', ')}: check --project and --environment.`
              : ''
          }`,
        });
      }
      return createApi(
        {
          serverUrl,
          apiKey,
          project: settings.project,
          environment: settings.environment,
          timeoutMs: timing.timeoutMs,
          onRetry: ({ attempt, waitMs, status }) =>
            out.log(out.paint('dim', `retry ${attempt} in ${Math.round(waitMs)} ms (server answered ${status})`)),
        },
        concurrency,
      );
    },
  };
  return ctx;
}

const MAX_CONCURRENCY = 64;
const DEFAULT_CONCURRENCY = 8;

/** `--concurrency` or `CMS_CONCURRENCY`: a whole number from 1 to 64 (a usage error otherwise). */
function concurrencyOf(flags: GlobalFlags, env: NodeJS.ProcessEnv): number {
  const [raw, from] =
    flags.concurrency !== undefined ? [flags.concurrency, '--concurrency'] : [env.CMS_CONCURRENCY, 'CMS_CONCURRENCY'];
  if (raw === undefined || raw === '') return DEFAULT_CONCURRENCY;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 1 || value > MAX_CONCURRENCY) {
    throw usageError(
      `${from} must be a whole number from 1 to ${MAX_CONCURRENCY}, not "${raw}".`,
      `Pass for example ${from === '--concurrency' ? '--concurrency 4' : 'CMS_CONCURRENCY=4'} (the default is ${DEFAULT_CONCURRENCY}).`,
    );
  }
  return value;
}

const DEFAULT_TIMEOUT_S = 60;
const DEFAULT_WAIT_S = 3600;

/** `--timeout`/`CMS_TIMEOUT` and `--wait`/`CMS_WAIT`: seconds, more than 0 (a usage error otherwise), as ms. */
function secondsOf(
  flag: string | undefined,
  fromEnv: string | undefined,
  name: string,
  variable: string,
  fallback: number,
): number {
  const [raw, from] = flag !== undefined ? [flag, name] : [fromEnv, variable];
  if (raw === undefined || raw === '') return fallback * 1000;
  const value = Number(raw);
  if (!Number.isFinite(value) || value <= 0) {
    throw usageError(
      `${from} must be a number of seconds above 0, not "${raw}".`,
      `Pass for example ${from === name ? `${name} 300` : `${variable}=300`} (the default is ${fallback}).`,
    );
  }
  return Math.round(value * 1000);
}

/** The server address must be http(s): `127.0.0.1:4000` alone would fail later as "cannot reach". */
function assertServerUrl(value: string, from: string): void {
  let url: URL | undefined;
  try {
    url = new URL(value);
  } catch {
    url = undefined;
  }
  if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:')) {
    throw usageError(
      `The server URL "${value}" (from ${from}) is not an http:// or https:// address.`,
      'Give the full address, for example --server-url http://127.0.0.1:4000.',
    );
  }
}
