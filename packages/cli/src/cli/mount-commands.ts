/**
 * Mounts the rows of the command table (built-in commands and module aliases) as commander
 * commands: groups on first use, the row's arguments and options, its examples under the help,
 * and an action that imports the row's code only when the command runs.
 */
import type { Command } from 'commander';
import type { CommandGroup, CommandSpec } from './command-spec.js';

export function mountCommands(
  program: Command,
  groups: readonly CommandGroup[],
  commands: readonly CommandSpec[],
): void {
  const summaries = new Map(groups.map((group) => [group.name, group.summary]));
  for (const spec of commands) {
    const words = spec.name.split(' ');
    const leaf = words.pop() as string;
    let parent = program;
    for (const word of words) {
      const existing = parent.commands.find((command) => command.name() === word);
      if (existing) {
        parent = existing;
        continue;
      }
      const summary = summaries.get(word);
      if (summary === undefined) throw new Error(`The command table has no group "${word}" for "${spec.name}".`);
      parent = parent.command(word).description(summary);
    }
    const command = parent.command(leaf).description(spec.summary);
    (spec.define as ((c: Command) => Command) | undefined)?.(command);
    if (spec.examples?.length) {
      command.addHelpText('after', `\nExamples:\n${spec.examples.map((line) => `  $ ${line}`).join('\n')}`);
    }
    command.action(async (...args: unknown[]) => {
      const { runCommand } = await import('./run-command.js');
      await runCommand(spec.run, args);
    });
  }
}
