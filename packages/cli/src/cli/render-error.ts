/** One shape for every failure: a message and a hint on stderr, or the JSON error document. */
import { CmsError } from '@cms/sdk';
import { CliError, EXIT, type ExitCode } from './exit-codes.js';

export interface ErrorReport {
  code: string;
  message: string;
  hint?: string;
  status?: number;
  requestId?: string;
  details?: Record<string, unknown>;
  exitCode: ExitCode;
}

const API_HINTS: Record<string, string> = {
  UNAUTHORIZED: 'Run `cms login`, or check --api-key / CMS_API_KEY.',
  FORBIDDEN: 'The key lacks a scope or this project/environment; check it with `cms whoami`.',
  SCHEMA_HASH_MISMATCH: 'The server schema differs from the config: run `cms schema diff`, then `cms schema sync`.',
  CONFLICT: 'Someone changed it on the server: run `cms pull`, resolve, then push again.',
  PROJECT_NOT_FOUND: 'Check --project / CMS_PROJECT.',
  ENVIRONMENT_NOT_FOUND: 'Check --environment / CMS_ENVIRONMENT; `cms env list` shows them.',
  RATE_LIMITED: 'Too many attempts from here: wait as long as the message says, then try again.',
};

export function toReport(error: unknown): ErrorReport {
  if (error instanceof CliError) {
    return {
      code: error.code,
      message: error.message,
      ...(error.hint ? { hint: error.hint } : {}),
      ...(Object.keys(error.details).length ? { details: error.details } : {}),
      exitCode: error.exitCode,
    };
  }
  if (error instanceof CmsError) {
    const exitCode: ExitCode =
      error.code === 'UNAUTHORIZED' ? EXIT.notSignedIn : error.code === 'CONFLICT' ? EXIT.conflict : EXIT.failure;
    // CONFLICT also answers a taken environment name or an applied migration, whose messages say what
    // to do; the pull hint fits only a document that changed on the server (it carries draftRevision).
    const stale = error.code !== 'CONFLICT' || 'draftRevision' in error.details;
    const hint = stale ? API_HINTS[error.code] : undefined;
    return {
      code: error.code,
      message: error.message,
      status: error.status,
      ...(hint ? { hint } : {}),
      ...(error.requestId ? { requestId: error.requestId } : {}),
      ...(Object.keys(error.details).length ? { details: error.details } : {}),
      exitCode,
    };
  }
  const message = error instanceof Error ? error.message : String(error);
  return { code: 'INTERNAL', message, exitCode: EXIT.failure };
}
