/**
 * Settings of a run, first found wins: flag (`--server-url`, `--project`, `--environment`,
 * `--api-key`), then environment (`CMS_SERVER_URL`, `CMS_PROJECT`, `CMS_ENVIRONMENT`, `CMS_API_KEY`),
 * then the config file, then the key stored by `cms login` (for the key only).
 */
export interface GlobalFlags {
  serverUrl?: string;
  project?: string;
  environment?: string;
  apiKey?: string;
  config?: string;
  json?: boolean;
  yes?: boolean;
  nonInteractive?: boolean;
  concurrency?: string;
  timeout?: string;
  wait?: string;
}

export interface Settings {
  serverUrl: string | undefined;
  project: string | undefined;
  environment: string | undefined;
  apiKey: string | undefined;
  /** Where each value came from, for `whoami` and error messages. */
  sources: Record<'serverUrl' | 'project' | 'environment' | 'apiKey', string | undefined>;
}

type Key = 'serverUrl' | 'project' | 'environment' | 'apiKey';

const ENV: Record<Key, string> = {
  serverUrl: 'CMS_SERVER_URL',
  project: 'CMS_PROJECT',
  environment: 'CMS_ENVIRONMENT',
  apiKey: 'CMS_API_KEY',
};

const FLAG: Record<Key, string> = {
  serverUrl: '--server-url',
  project: '--project',
  environment: '--environment',
  apiKey: '--api-key',
};

export function flagOf(key: Key): string {
  return FLAG[key];
}

export function envOf(key: Key): string {
  return ENV[key];
}

export function resolveSettings(
  flags: GlobalFlags,
  env: NodeJS.ProcessEnv,
  config: { serverUrl?: string | undefined; project?: string | undefined; environment?: string | undefined } = {},
): Settings {
  const sources = {} as Settings['sources'];
  const pick = (key: Key): string | undefined => {
    const flag = flags[key];
    if (flag) {
      sources[key] = FLAG[key];
      return flag;
    }
    const fromEnv = env[ENV[key]];
    if (fromEnv) {
      sources[key] = ENV[key];
      return fromEnv;
    }
    const fromConfig = key === 'apiKey' ? undefined : config[key];
    if (fromConfig) {
      sources[key] = 'config';
      return fromConfig;
    }
    sources[key] = undefined;
    return undefined;
  };
  return {
    serverUrl: pick('serverUrl'),
    project: pick('project'),
    environment: pick('environment'),
    apiKey: pick('apiKey'),
    sources,
  };
}
