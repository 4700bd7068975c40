/**
 * Questions are asked only when stdin and stdout are TTYs; `--yes` pre-answers them; otherwise
 * (CI, `--non-interactive`, pipes) a needed answer fails fast naming the flag that gives it.
 */
import { createInterface } from 'node:readline/promises';
import { CliError, EXIT } from './exit-codes.js';

export interface PromptContext {
  yes: boolean;
  interactive: boolean;
}

export function isInteractive(nonInteractive: boolean | undefined, env: NodeJS.ProcessEnv = process.env): boolean {
  if (nonInteractive) return false;
  if (env.CI && env.CI !== 'false' && env.CI !== '0') return false;
  return Boolean(process.stdin.isTTY && process.stdout.isTTY);
}

/** Asks a yes/no question on stderr; --yes answers yes; no TTY fails naming `flag`. */
export async function confirm(ctx: PromptContext, prompt: string, flag = '--yes'): Promise<boolean> {
  if (ctx.yes) return true;
  if (!ctx.interactive) {
    throw new CliError('CONFIRMATION_REQUIRED', `${prompt} (needs an answer, and this run cannot ask).`, {
      exitCode: EXIT.cancelled,
      hint: `Pass ${flag} to answer yes without a prompt.`,
    });
  }
  const answer = (await question(`${prompt} [y/N] `)).trim().toLowerCase();
  return answer === 'y' || answer === 'yes';
}

/**
 * One line from the terminal. Ctrl-C at the question reaches readline as a key, not as SIGINT: it is
 * the documented interruption (exit 130), not a failure.
 */
export async function question(text: string, signal?: AbortSignal): Promise<string> {
  const rl = createInterface({ input: process.stdin, output: process.stderr });
  try {
    return await rl.question(text, signal ? { signal } : {});
  } catch (error) {
    if (signal?.aborted) throw error;
    if ((error as { code?: string }).code === 'ABORT_ERR') {
      throw new CliError('INTERRUPTED', 'Interrupted at the question: nothing was done.', {
        exitCode: EXIT.interrupted,
      });
    }
    throw error;
  } finally {
    rl.close();
  }
}

/** Asks for a line of text (TTY only). */
export async function ask(ctx: PromptContext, prompt: string, fallback: string, flag: string): Promise<string> {
  if (ctx.yes) return fallback;
  if (!ctx.interactive) {
    throw new CliError('INPUT_REQUIRED', `${prompt}: this run cannot ask.`, {
      exitCode: EXIT.usage,
      hint: `Pass ${flag}, or --yes to accept "${fallback}".`,
    });
  }
  const answer = (await question(`${prompt} [${fallback}] `)).trim();
  return answer || fallback;
}
