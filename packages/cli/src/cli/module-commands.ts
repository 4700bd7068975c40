/**
 * The rows modules add to the command table: one per alias of `@cms/core/cli-surface`, checked at
 * every start against the built-in commands (a clash, a wrong name, an unknown action or preflight
 * stops `cms` with the module and alias named). The flags come from the action's request schema,
 * loaded only when the alias is the command being run (or its help is asked for), so `cms --help`
 * stays light.
 */
import { assertCliSurfaces, type CliAlias, type ModuleCliSurface } from '@cms/core/cli-surface';
import type { Command } from 'commander';
import type { CommandGroup, CommandSpec } from './command-spec.js';

export interface ModuleRows {
  groups: CommandGroup[];
  commands: CommandSpec[];
}

/** Whether argv names this alias (`cms --json settings set ...`). */
function invoked(alias: CliAlias, argv: readonly string[]): boolean {
  const words = argv.filter((arg) => !arg.startsWith('-'));
  const wanted = alias.command.split(' ');
  // Any position: a global option's value (`--config settings`) may come first.
  return words.some((_, at) => wanted.every((word, index) => words[at + index] === word));
}

export async function moduleRows(
  surfaces: readonly ModuleCliSurface[],
  builtIns: { groups: readonly CommandGroup[]; commands: readonly CommandSpec[] },
  argv: readonly string[],
): Promise<ModuleRows> {
  const groupNames = new Set(builtIns.groups.map((group) => group.name));
  assertCliSurfaces(surfaces, {
    builtIns: new Set(builtIns.commands.map((command) => command.name)),
    builtInGroups: groupNames,
  });
  const groups = new Map<string, { moduleId: string; leaves: string[] }>();
  const commands: CommandSpec[] = [];
  for (const surface of surfaces) {
    for (const alias of surface.aliases) {
      const [group, leaf] = alias.command.split(' ');
      if (leaf !== undefined && !groupNames.has(group as string)) {
        const entry = groups.get(group as string) ?? { moduleId: surface.moduleId, leaves: [] };
        entry.leaves.push(leaf);
        groups.set(group as string, entry);
      }
      let define: ((command: Command) => Command) | undefined;
      if (invoked(alias, argv)) {
        const [{ routeOf }, { defineAliasFlags }] = await Promise.all([
          import('../commands/alias.command.js'),
          import('./alias-flags.js'),
        ]);
        const { request } = await routeOf(alias.action);
        define = (command) => {
          defineAliasFlags(command, request, alias.inputMode, alias.options);
          return command;
        };
      }
      commands.push({
        name: alias.command,
        summary: alias.summary,
        ...(alias.examples ? { examples: alias.examples } : {}),
        ...(define ? { define: define as unknown as CommandSpec['define'] } : {}),
        run: () => import('../commands/alias.command.js').then((m) => m.aliasRunner(alias)),
      });
    }
  }
  return {
    groups: [...groups].map(([name, { moduleId, leaves }]) => ({
      name,
      summary: `${name[0]?.toUpperCase()}${name.slice(1)} on the server: ${leaves.join(', ')} (module ${moduleId})`,
    })),
    commands,
  };
}
