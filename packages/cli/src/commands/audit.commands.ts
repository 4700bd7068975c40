/** `cms audit list|verify` (docs/audit.md, docs/cli.md "Audit log"). */
import type { AuditEntry, AuditOutcome } from '@cms/core';
import type { Context } from '../cli/context.js';
import { EXIT, usageError } from '../cli/exit-codes.js';
import type { CommandResult } from '../cli/run-command.js';
import { AUDIT_MAX_LIMIT } from './command-table.js';

interface ListOptions {
  actor?: string;
  action?: string;
  document?: string;
  type?: string;
  from?: string;
  to?: string;
  outcome?: string;
  limit?: string;
  cursor?: string;
}

function printEntry(ctx: Context, entry: AuditEntry): void {
  const colour = entry.outcome === 'success' ? 'green' : entry.outcome === 'denied' ? 'yellow' : 'red';
  const who = entry.actor.label ?? `${entry.actor.type}:${entry.actor.id}`;
  const what = [entry.target.type, entry.target.documentId ?? entry.target.id].filter(Boolean).join(' ');
  ctx.out.line(
    `${entry.at}  ${ctx.out.paint(colour, entry.outcome.padEnd(7))}  ${entry.action}  ${who}${what ? `  ${what}` : ''}`,
  );
}

function limitOf(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const limit = Number(value);
  if (!Number.isInteger(limit) || limit < 1 || limit > AUDIT_MAX_LIMIT) {
    throw usageError(`--limit must be a whole number from 1 to ${AUDIT_MAX_LIMIT}.`);
  }
  return limit;
}

/** List audit entries of the project, newest first. */
export async function auditList(ctx: Context, opts: ListOptions): Promise<CommandResult> {
  const o = opts as ListOptions;
  const limit = limitOf(o.limit);
  const page = await (await ctx.api()).audit.list({
    ...(o.actor ? { actor: o.actor } : {}),
    ...(o.action ? { action: o.action } : {}),
    ...(o.document ? { documentId: o.document } : {}),
    ...(o.type ? { type: o.type } : {}),
    ...(o.from ? { from: o.from } : {}),
    ...(o.to ? { to: o.to } : {}),
    ...(o.outcome ? { outcome: o.outcome as AuditOutcome } : {}),
    ...(limit ? { limit } : {}),
    ...(o.cursor ? { cursor: o.cursor } : {}),
  });
  for (const entry of page.data) printEntry(ctx, entry);
  if (page.data.length === 0) ctx.out.log('No audit entries.');
  if (page.pagination.nextCursor) ctx.out.log(`More: cms audit list --cursor ${page.pagination.nextCursor}`);
  // With --json: the page's entries and the cursor of the next page (null on the last).
  return { data: { entries: page.data, nextCursor: page.pagination.nextCursor } };
}

/** Check the hash chain of the audit log. */
export async function auditVerify(ctx: Context): Promise<CommandResult> {
  const result = await (await ctx.api()).audit.verify();
  if (result.ok) ctx.out.line(`${ctx.out.paint('green', 'ok')}  ${result.checked} entries checked`);
  else {
    ctx.out.line(
      `${ctx.out.paint('red', 'broken')}  after ${result.checked} good entries, at entry ${result.firstBrokenId ?? '(none left)'}`,
    );
  }
  return { data: result, exitCode: result.ok ? EXIT.ok : EXIT.failure };
}
