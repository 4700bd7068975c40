import { describe, expect, it } from 'vitest';
import { assertCliSurfaces, type CliAlias, type CliPreflight, CliSurfaceError } from './cli-surface.js';
import { FIRST_PARTY_CLI } from './index.js';

const alias = (over: Partial<CliAlias> = {}): CliAlias => ({
  command: 'settings set',
  action: 'projects.settings.put',
  summary: 'x',
  inputMode: 'flags',
  ...over,
});
const check = {
  builtIns: new Set(['push', 'schema sync', 'media upload']),
  builtInGroups: new Set(['schema', 'media']),
};

function rejected(aliases: CliAlias[], reason: RegExp, moduleId = 'test.module'): void {
  let caught: unknown;
  try {
    assertCliSurfaces([{ moduleId, aliases }], check);
  } catch (error) {
    caught = error;
  }
  expect(caught).toBeInstanceOf(CliSurfaceError);
  expect((caught as CliSurfaceError).moduleId).toBe(moduleId);
  expect((caught as Error).message).toMatch(reason);
}

describe('module command-line surfaces', () => {
  it('the first-party surfaces are valid against the built-in commands', () => {
    expect(() => assertCliSurfaces(FIRST_PARTY_CLI, check)).not.toThrow();
    expect(FIRST_PARTY_CLI.map((s) => s.moduleId)).toEqual(['core.system', 'domain.content']);
  });

  it('refuses a wrong alias name, an unknown action, input mode or preflight', () => {
    rejected([alias({ command: 'Settings Set' })], /alias "Settings Set" must be one or two lowercase words/);
    rejected([alias({ command: 'a b c' })], /must be one or two lowercase words/);
    rejected([alias({ action: 'settings.nope' })], /calls the unknown action "settings\.nope"/);
    rejected([alias({ inputMode: 'yaml' as 'flags' })], /input mode "yaml"; use flags, file or none/);
    rejected([alias({ preflight: ['capability:fly' as CliPreflight] })], /unknown preflight "capability:fly"/);
  });

  it('refuses a clash with a built-in command or group, and an alias declared twice', () => {
    rejected([alias({ command: 'push' })], /clashes with the built-in command `cms push`/);
    rejected(
      [alias({ command: 'media upload', action: 'media.upload' })],
      /clashes with the built-in command `cms media upload`/,
    );
    rejected([alias({ command: 'schema' })], /clashes with the built-in command `cms schema`/);
    rejected([alias({ command: 'push all' })], /sub-command of the built-in command `cms push`/);
    rejected([alias(), alias({ action: 'projects.settings.get' })], /already declared by module "test\.module"/);
  });

  it('formatters print the answer for humans', () => {
    const [system] = FIRST_PARTY_CLI;
    const set = system?.aliases.find((a) => a.command === 'settings set');
    expect(set?.format?.({ mediaImageMaxBytes: 5, previewUrl: null, previewUrls: { post: 'x' } })).toEqual([
      'mediaImageMaxBytes: 5',
      'previewUrl: (not set)',
      'previewUrls: {"post":"x"}',
    ]);
    const content = FIRST_PARTY_CLI.find((surface) => surface.moduleId === 'domain.content');
    const get = content?.aliases.find((a) => a.command === 'content get');
    expect(
      get?.format?.({ documentId: 'd1', type: 'post', path: 'hello', locale: 'en', frontmatter: { title: 'Hi' } }),
    ).toEqual(['post hello (en)  id d1', '  title: "Hi"']);
    const search = content?.aliases.find((a) => a.command === 'content search');
    expect(
      search?.format?.([
        { type: 'post', path: 'hello', title: 'Hi', snippet: 'say «hello»' },
        { type: 'page', path: 'about', title: null, snippet: 'all «about» it' },
      ]),
    ).toEqual(['post:hello  Hi', '  say «hello»', 'page:about', '  all «about» it']);
    expect(search?.format?.([])).toEqual(['No matches.']);
  });
});
