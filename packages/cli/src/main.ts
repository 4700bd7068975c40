/** The `cms` program: global settings, every command, usage errors as exit 2, Ctrl-C as exit 130. */

import { CliSurfaceError, FIRST_PARTY_CLI } from '@cms/core/cli-surface';
import { Command, CommanderError } from 'commander';
import { CliError, EXIT } from './cli/exit-codes.js';
import { getInterruptDetails, runInterruptHooks } from './cli/interrupt.js';
import { type ModuleRows, moduleRows } from './cli/module-commands.js';
import { mountCommands } from './cli/mount-commands.js';
import { Output } from './cli/output.js';
import { lastExitCode, reportFailure } from './cli/run-command.js';
import { COMMAND_GROUPS, COMMANDS } from './commands/command-table.js';

export const VERSION = '0.1.0';

/** What commander printed or failed on while parsing: help and version text, and which command. */
interface ParseOutput {
  /** Help or version text (stdout without --json, the JSON document's data with it). */
  text: string;
  /** The command whose parsing failed, for the hint (`cms push --help`). */
  failed: Command | undefined;
}

/**
 * Usage errors are reported once, by reportFailure (message and hint, or the JSON document), not
 * also by commander; with --json, help and version text go into the one JSON document.
 */
function configure(command: Command, json: boolean, output: ParseOutput): void {
  command.exitOverride((error) => {
    output.failed ??= command;
    throw error;
  });
  command.configureOutput({
    writeOut: (text) => {
      if (json) output.text += text;
      else process.stdout.write(text);
    },
    writeErr: (text) => {
      if (!json) process.stderr.write(text);
    },
    outputError: () => undefined,
  });
  for (const sub of command.commands) configure(sub, json, output);
}

/** `cms schema sync`, for hints. */
function commandPath(command: Command | undefined): string {
  const names: string[] = [];
  for (let at = command; at; at = at.parent ?? undefined) names.unshift(at.name());
  return names.join(' ') || 'cms';
}

export function buildProgram(
  json: boolean,
  output: ParseOutput = { text: '', failed: undefined },
  modules: ModuleRows = { groups: [], commands: [] },
): Command {
  const program = new Command('cms')
    .description('Content as code: markdown files in git, synced with the CMS server.')
    .version(VERSION)
    .option('--server-url <url>', 'server address (else CMS_SERVER_URL, else the config)')
    .option('--project <slug>', 'project slug (else CMS_PROJECT, else the config)')
    .option('--environment <name>', 'environment name (else CMS_ENVIRONMENT, else the config)')
    .option('--api-key <key>', 'API key (else CMS_API_KEY, else the key stored by cms login)')
    .option('--config <file>', 'config file (default: cms.config.ts|mts|mjs|js here or in a parent folder)')
    .option('--json', 'print exactly one JSON document on stdout, errors included')
    .option('-y, --yes', 'answer yes to confirmations')
    .option('--non-interactive', 'never prompt; a needed answer fails naming its flag')
    .option('--concurrency <n>', 'parallel requests (default 8, or CMS_CONCURRENCY)')
    .option(
      '--timeout <seconds>',
      'how long to wait for each answer (default 60, or CMS_TIMEOUT); a publish or migration whose answer is late is followed',
    )
    .option(
      '--wait <seconds>',
      'how long to follow a publish or migration whose answer was late, until the server shows its result (default 3600, or CMS_WAIT)',
    )
    .enablePositionalOptions(false);
  mountCommands(program, COMMAND_GROUPS, COMMANDS);
  mountCommands(program, modules.groups, modules.commands);
  configure(program, json, output);
  return program;
}

/** Runs the CLI; resolves with the exit code. */
export async function main(argv: string[]): Promise<number> {
  const json = argv.includes('--json');
  const output: ParseOutput = { text: '', failed: undefined };
  let modules: ModuleRows;
  try {
    modules = await moduleRows(FIRST_PARTY_CLI, { groups: COMMAND_GROUPS, commands: COMMANDS }, argv);
  } catch (error) {
    return reportFailure(new Output({ json }), surfaceFailure(error));
  }
  const program = buildProgram(json, output, modules);
  const onSigint = () => {
    void runInterruptHooks().finally(() => {
      const out = new Output({ json });
      const details = getInterruptDetails();
      if (json)
        out.result({
          ok: false,
          exitCode: EXIT.interrupted,
          error: { code: 'INTERRUPTED', message: 'Interrupted.', ...(details ? { details } : {}) },
        });
      else process.stderr.write('\nInterrupted.\n');
      process.exit(EXIT.interrupted);
    });
  };
  process.once('SIGINT', onSigint);
  try {
    await program.parseAsync(argv, { from: 'user' });
    return lastExitCode;
  } catch (error) {
    if (error instanceof CommanderError) return reportCommanderError(error, json, output);
    return reportFailure(new Output({ json }), error);
  } finally {
    process.removeListener('SIGINT', onSigint);
  }
}

/** A module's command-line surface that cannot be mounted: every command refuses to run, naming it. */
function surfaceFailure(error: unknown): unknown {
  if (!(error instanceof CliSurfaceError)) return error;
  return new CliError('MODULE_SURFACE_INVALID', error.message, {
    hint: `Fix the declaration of module "${error.moduleId}" in @cms/core/cli-surface (docs/cli.md "Module commands").`,
    details: { moduleId: error.moduleId },
  });
}

function reportCommanderError(error: CommanderError, json: boolean, output: ParseOutput): number {
  const out = new Output({ json });
  // `cms help push` answers 'commander.help' with exit code 0; `cms` alone the same code with 1.
  const helpShown = error.code === 'commander.help' && error.exitCode === 0;
  if (error.code === 'commander.helpDisplayed' || error.code === 'commander.version' || helpShown) {
    const key = error.code === 'commander.version' ? 'version' : 'help';
    out.result({ ok: true, exitCode: EXIT.ok, data: { [key]: key === 'version' ? VERSION : output.text } });
    return EXIT.ok;
  }
  if (error.code === 'commander.executeSubCommandAsync') return EXIT.ok;
  const where = commandPath(output.failed);
  // `cms` or `cms schema` alone: commander has printed the help (on stderr); the command is missing.
  const noCommand = error.code === 'commander.help';
  const message = noCommand
    ? `${where}: which command? None was given.`
    : error.message.replace(/^error: /, '').replace(/\n/g, ' ');
  const about = noCommand || error.code === 'commander.unknownCommand' ? 'commands' : 'options and arguments';
  return reportFailure(
    out,
    new CliError('USAGE', message, { exitCode: EXIT.usage, hint: `Run \`${where} --help\` to see its ${about}.` }),
  );
}
