/** Exit codes scripts can rely on (docs/cli.md "Exit codes"). */
export const EXIT = {
  ok: 0,
  failure: 1,
  usage: 2,
  cancelled: 3,
  notSignedIn: 4,
  conflict: 5,
  interrupted: 130,
} as const;

export type ExitCode = (typeof EXIT)[keyof typeof EXIT];

/** An error the CLI reports and exits on: a stable code, the exit code and a hint saying how to fix it. */
export class CliError extends Error {
  readonly code: string;
  readonly exitCode: ExitCode;
  readonly hint: string | undefined;
  readonly details: Record<string, unknown>;

  constructor(
    code: string,
    message: string,
    options: { exitCode?: ExitCode; hint?: string; details?: Record<string, unknown> } = {},
  ) {
    super(message);
    this.name = 'CliError';
    this.code = code;
    this.exitCode = options.exitCode ?? EXIT.failure;
    this.hint = options.hint;
    this.details = options.details ?? {};
  }
}

/** A usage mistake (unknown flag, missing setting): exit 2. */
export function usageError(message: string, hint?: string): CliError {
  return new CliError('USAGE', message, { exitCode: EXIT.usage, ...(hint ? { hint } : {}) });
}
