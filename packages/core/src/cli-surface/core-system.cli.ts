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
      action: 'projects.settings.patch',
      summary: 'Change the named settings of the project; the others keep their values (null unsets one)',
      inputMode: 'flags',
      format: formatSettings,
      preflight: ['capability:settings.manage'],
      examples: [
        "cms settings set --preview-url 'https://example.com/{path}?token={token}'",
        'cms settings set --media-image-max-bytes 5000000',
        'cms settings set --media-image-max-bytes null',
      ],
      options: {
        mediaImageMaxBytes:
          'largest image upload in bytes (bigger ones are refused); null: no limit beyond the upload limit',
        mediaImagePresets:
          'named image transforms for ?preset=, as JSON ({"thumb":{"w":200,"h":200,"fit":"cover"}}); null: the defaults',
        mediaImageMaxDimension: 'largest width or height an image transform may ask for; null: 4096',
        mediaImageMaxInputPixels: 'originals with more pixels are not transformed; null: 50000000',
        previewUrl: 'the live preview address, with {path}, {locale}, {type} and {token}; null: no live preview',
        previewUrls: 'per content type, a preview address replacing --preview-url, as JSON ({"post":"https://..."})',
      },
    },
  ],
};
