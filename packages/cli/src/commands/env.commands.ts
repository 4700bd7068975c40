/** `cms env list|create|clone|promote`. */

import type { Context } from '../cli/context.js';
import { EXIT } from '../cli/exit-codes.js';
import { confirm } from '../cli/prompt.js';
import type { CommandResult } from '../cli/run-command.js';

/** `cms env list`. */
export async function envList(ctx: Context): Promise<CommandResult> {
  const api = await ctx.api();
  const list = await api.environments.list();
  for (const e of list)
    ctx.out.line(`${e.name}${e.isDefault ? ' (default)' : ''}${e.extends ? ` extends ${e.extends}` : ''}`);
  return { data: list };
}

/** `cms env create <name>`. */
export async function envCreate(ctx: Context, name: string, opts: { extends?: string }): Promise<CommandResult> {
  const api = await ctx.api();
  const o = opts as { extends?: string };
  const created = await api.environments.create({
    name: name as string,
    ...(o.extends ? { extends: o.extends } : {}),
  });
  ctx.out.log(`Created environment ${created.name}.`);
  return { data: created };
}

/** `cms env clone <source> <name>`. */
export async function envClone(ctx: Context, source: string, name: string): Promise<CommandResult> {
  const api = await ctx.api();
  const created = await api.environments.create({ name: name as string, cloneFrom: source as string });
  ctx.out.log(`Cloned ${source} into ${created.name}.`);
  return { data: created };
}

/** `cms env promote <source> <target>`. */
export async function envPromote(
  ctx: Context,
  source: string,
  target: string,
  opts: { dryRun?: boolean },
): Promise<CommandResult> {
  const api = await ctx.api();
  type Item = { documentId: string; path: string; locale: string; action: string; reason?: string };
  const answer = (await api.environments.promote(source as string, {
    target: target as string,
    dryRun: true,
  })) as {
    plan?: Item[];
  };
  const plan = answer.plan ?? [];
  for (const i of plan) {
    const locale = i.locale !== '__cms_default__' ? ` (${i.locale})` : '';
    ctx.out.line(`${i.action.padEnd(9)} ${i.path}${locale}${i.reason ? `: ${i.reason}` : ''}`);
  }
  const conflicts = plan.filter((i) => i.action === 'conflict').length;
  const changes = plan.filter((i) => i.action === 'create' || i.action === 'update').length;
  if (conflicts > 0) {
    ctx.out.log(`${conflicts} conflict(s): nothing can be promoted until they are resolved.`);
    // The server's reason names both environments; this says which one to sync from this config.
    if (plan.some((i) => i.action === 'conflict' && /schema/i.test(i.reason ?? '')))
      ctx.out.log(
        `The schemas differ: sync the same one to ${target}, for example \`cms schema sync --environment ${target}\`.`,
      );
    return { data: { plan, applied: false }, exitCode: EXIT.conflict };
  }
  if ((opts as { dryRun?: boolean }).dryRun || changes === 0) {
    if (changes === 0) ctx.out.log('Nothing to promote.');
    return { data: { plan, applied: false } };
  }
  if (!(await confirm(ctx.prompt, `Promote ${changes} document(s) from ${source} to ${target}?`))) {
    return { data: { plan, applied: false, cancelled: true }, exitCode: EXIT.cancelled };
  }
  const result = (await api.environments.promote(source as string, { target: target as string })) as {
    plan?: Item[];
    applied?: boolean;
  };
  if (!result.applied) {
    ctx.out.log('The server did not apply the promotion (the plan changed meanwhile): run it again.');
    return { data: { plan: result.plan ?? plan, applied: false }, exitCode: EXIT.conflict };
  }
  ctx.out.log(`Promoted ${changes} document(s).`);
  return { data: { plan: result.plan ?? plan, applied: true } };
}
