import { type CliAlias, CliSurfaceError, FIRST_PARTY_CLI } from '@cms/core/cli-surface';
import { describe, expect, it } from 'vitest';
import { moduleRows } from '../../src/cli/module-commands.js';
import { COMMAND_GROUPS, COMMANDS } from '../../src/commands/command-table.js';

const builtIns = { groups: COMMAND_GROUPS, commands: COMMANDS };

describe('module rows of the command table', () => {
  it('mounts every first-party alias, new groups named after their module', async () => {
    const rows = await moduleRows(FIRST_PARTY_CLI, builtIns, ['--help']);
    expect(rows.commands.map((c) => c.name)).toEqual([
      'settings show',
      'settings set',
      'content list',
      'content get',
      'content search',
      'content migrate',
      'content migration',
      'media list',
    ]);
    expect(rows.groups.map((g) => g.name)).toEqual(['settings', 'content']);
    // Not invoked: no flags loaded (the request schema is imported only for the alias that runs).
    expect(rows.commands.every((c) => c.define === undefined)).toBe(true);
    const invoked = await moduleRows(FIRST_PARTY_CLI, builtIns, ['settings', 'set', '--help']);
    expect(invoked.commands.find((c) => c.name === 'settings set')?.define).toBeTypeOf('function');
  });

  it('fails at start on a module alias that takes a built-in command of this CLI', async () => {
    const upload: CliAlias = { command: 'media upload', action: 'media.upload', summary: 'x', inputMode: 'file' };
    const clash = { moduleId: 'domain.content', aliases: [upload] };
    await expect(moduleRows([clash], builtIns, [])).rejects.toThrow(CliSurfaceError);
    await expect(moduleRows([clash], builtIns, [])).rejects.toThrow(
      /Module "domain\.content" .*alias "media upload" clashes with the built-in command `cms media upload`/,
    );
    const wrong = { moduleId: 'core.system', aliases: [{ ...upload, command: 'status', action: 'x.y' }] };
    await expect(moduleRows([wrong], builtIns, [])).rejects.toThrow(/unknown action "x\.y"/);
  });
});
