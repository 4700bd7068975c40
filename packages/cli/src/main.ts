/** The `cms` program: global settings, every command, usage errors as exit 2, Ctrl-C as exit 130. */
import { Command, CommanderError } from 'commander';
import { CliError, EXIT } from './cli/exit-codes.js';
import { runInterruptHooks } from './cli/interrupt.js';
import { Output } from './cli/output.js';
import { lastExitCode, reportFailure } from './cli/run-command.js';
import { registerAuthCommands } from './commands/auth.commands.js';
import { registerContentCommands } from './commands/content.commands.js';
import { registerEnvCommands } from './commands/env.commands.js';
import { registerInitCommand } from './commands/init.command.js';
import { registerMiscCommands } from './commands/misc.commands.js';
import { registerSchemaCommands } from './commands/schema.commands.js';
import { registerSyncCommands } from './commands/sync.commands.js';

export const VERSION = '0.1.0';

function configure(command: Command, json: boolean): void {
  command.exitOverride();
  command.configureOutput({
    writeErr: (text) => {
      if (!json) process.stderr.write(text);
    },
  });
  for (const sub of command.commands) configure(sub, json);
}

export function buildProgram(json: boolean): Command {
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
    .showHelpAfterError(!json)
    .enablePositionalOptions(false);
  registerInitCommand(program);
  registerAuthCommands(program);
  registerSchemaCommands(program);
  registerSyncCommands(program);
  registerContentCommands(program);
  registerMiscCommands(program);
  registerEnvCommands(program);
  configure(program, json);
  return program;
}

/** Runs the CLI; resolves with the exit code. */
export async function main(argv: string[]): Promise<number> {
  const json = argv.includes('--json');
  const program = buildProgram(json);
  const onSigint = () => {
    void runInterruptHooks().finally(() => {
      const out = new Output({ json });
      if (json)
        out.result({ ok: false, exitCode: EXIT.interrupted, error: { code: 'INTERRUPTED', message: 'Interrupted.' } });
      else process.stderr.write('\nInterrupted.\n');
      process.exit(EXIT.interrupted);
    });
  };
  process.once('SIGINT', onSigint);
  try {
    await program.parseAsync(argv, { from: 'user' });
    return lastExitCode;
  } catch (error) {
    if (error instanceof CommanderError) {
      if (
        error.code === 'commander.helpDisplayed' ||
        error.code === 'commander.version' ||
        error.code === 'commander.help'
      ) {
        if (json)
          new Output({ json }).result({
            ok: true,
            exitCode: 0,
            data: { help: error.code === 'commander.version' ? VERSION : 'see --help without --json' },
          });
        return EXIT.ok;
      }
      if (error.code === 'commander.executeSubCommandAsync') return EXIT.ok;
      return reportFailure(
        new Output({ json }),
        new CliError('USAGE', error.message.replace(/^error: /, ''), {
          exitCode: EXIT.usage,
          hint: 'Run `cms --help` or `cms <command> --help`.',
        }),
      );
    }
    return reportFailure(new Output({ json }), error);
  } finally {
    process.removeListener('SIGINT', onSigint);
  }
}
