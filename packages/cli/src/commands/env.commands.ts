/** `cms env list|create|clone|promote`. */
import type { Command } from 'commander';
import { EXIT } from '../cli/exit-codes.js';
import { confirm } from '../cli/prompt.js';
import { action } from '../cli/run-command.js';

export function registerEnvCommands(program: Command): void {
  const env = program.command('env').description('Environments of the project');
  env
    .command('list')
    .description('List the environments')
    .action(
      action(async (ctx) => {
        const api = await ctx.api();
        const list = await api.environments.list();
        for (const e of list)
          ctx.out.line(`${e.name}${e.isDefault ? ' (default)' : ''}${e.extends ? ` extends ${e.extends}` : ''}`);
        return { data: list };
      }),
    );
  env
    .command('create')
    .description('Create an environment')
    .argument('<name>')
    .option('--extends <base>', 'inherit the schema of this environment (an overlay)')
    .action(
      action(async (ctx, name, opts) => {
        const api = await ctx.api();
        const o = opts as { extends?: string };
        const created = await api.environments.create({
          name: name as string,
          ...(o.extends ? { extends: o.extends } : {}),
        });
        ctx.out.log(`Created environment ${created.name}.`);
        return { data: created };
      }),
    );
  env
    .command('clone')
    .description('Create an environment holding a copy of another one (schema and documents)')
    .argument('<source>')
    .argument('<name>')
    .action(
      action(async (ctx, source, name) => {
        const api = await ctx.api();
        const created = await api.environments.create({ name: name as string, cloneFrom: source as string });
        ctx.out.log(`Cloned ${source} into ${created.name}.`);
        return { data: created };
      }),
    );
  env
    .command('promote')
    .description('Copy documents of one environment into another: prints the plan, asks, applies')
    .argument('<source>')
    .argument('<target>')
    .option('--dry-run', 'print the plan only')
    .action(
      action(async (ctx, source, target, opts) => {
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
      }),
    );
}
