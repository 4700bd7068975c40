/** The command-line surface of `core.system`: project settings. */
import type { CliFormatter, ModuleCliSurface } from './cli-surface.js';

/** One `name: value` line per setting; objects as compact JSON, unset values as "(not set)". */
export const formatSettings: CliFormatter = (data) =>
  Object.entries((data ?? {}) as Record<string, unknown>).map(
    ([key, value]) =>
      `${key}: ${value === null || value === undefined ? '(not set)' : typeof value === 'object' ? JSON.stringify(value) : String(value)}`,
  );

export const coreSystemCli: ModuleCliSurface = {
  moduleId: 'core.system',
  aliases: [
    {
      command: 'settings show',
      action: 'projects.settings.get',
      summary: 'Show the settings of the project (media image limits, live preview address)',
      inputMode: 'none',
      format: formatSettings,
    },
    {
      command: 'settings set',
      action: 'projects.settings.put',
      summary: 'Replace the settings of the project (--media-image-max-bytes left out: no limit)',
      inputMode: 'flags',
      format: formatSettings,
      preflight: ['capability:settings.manage'],
      examples: [
        "cms settings set --media-image-max-bytes 5000000 --preview-url 'https://example.com/{path}?token={token}'",
        'cms settings set --media-image-max-bytes null',
      ],
    },
  ],
};
