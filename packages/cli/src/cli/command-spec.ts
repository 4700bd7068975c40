/**
 * One row of the command table: what `cms --help` shows (name, summary, arguments, options,
 * examples) and a lazy import of the one function that runs the command. Declaring the options
 * with commander's typed builder infers the function's parameters, so a flag renamed here and not
 * there fails the type check, while `cms --help` loads none of the command's code.
 */
import type { Command, OptionValues } from '@commander-js/extra-typings';
import type { Context } from './context.js';
import type { CommandResult } from './run-command.js';

/** The function a command runs: the context, its positional arguments, then its options. */
export type CommandRun<A extends unknown[], O extends OptionValues> = (
  ctx: Context,
  ...input: [...A, O]
) => Promise<CommandResult>;

export interface CommandSpec<A extends unknown[] = unknown[], O extends OptionValues = OptionValues> {
  /** `push`, or `schema sync` under the group `schema`. */
  name: string;
  summary: string;
  /** Command lines shown under "Examples:" in the command's help. */
  examples?: readonly string[];
  /** Arguments and options, in the order the help lists them. */
  define?: (command: Command) => Command<A, O>;
  /** Imports the command's code when it runs (never for --help or --version). */
  run: () => Promise<CommandRun<A, O>>;
}

/** A command with sub-commands only (`cms schema`): its summary in the parent's help. */
export interface CommandGroup {
  name: string;
  summary: string;
}

/**
 * A row whose argument and option types are checked against the function it imports. `define`
 * needs its parameter typed (`(c: Command) =>`): an untyped callback is not an inference site.
 */
// biome-ignore lint/complexity/noBannedTypes: commander's own type for "no options yet".
export function defineCommand<A extends unknown[] = [], O extends OptionValues = {}>(spec: {
  name: string;
  summary: string;
  examples?: readonly string[];
  define?: (command: Command) => Command<A, O>;
  run: () => Promise<NoInfer<CommandRun<A, O>>>;
}): CommandSpec {
  return spec as unknown as CommandSpec;
}
