/** `cms publish <path...>`: publishes the documents behind files the manifest tracks. */
import type { Command } from 'commander';
import { isApiError } from '../api/api-error.js';
import { mapLimit } from '../api/limiter.js';
import { CliError, EXIT } from '../cli/exit-codes.js';
import { action } from '../cli/run-command.js';
import { manifestPath, readManifest, writeManifest } from '../sync/manifest.js';
import { toRootRelative } from '../sync/paths.js';

export function registerContentCommands(program: Command): void {
  program
    .command('publish')
    .description('Publish the documents of these files (push them first)')
    .argument('<paths...>', 'files or folders of tracked documents')
    .option('-m, --message <text>', 'change summary recorded with the version')
    .action(
      action(async (ctx, paths, opts) => {
        const { serverUrl, project, environment } = ctx.target();
        const api = await ctx.api();
        const root = ctx.config?.contentRoot ?? ctx.cwd;
        const file = manifestPath(ctx.config?.dir ?? ctx.cwd, project, environment);
        const manifest = await readManifest(file, { project, environment, serverUrl });
        const wanted = (paths as string[]).map((p) => toRootRelative(ctx.cwd, root, p));
        const entries = Object.values(manifest.documents).filter((e) =>
          wanted.some((w) => e.file === w || e.file.startsWith(`${w}/`) || w === ''),
        );
        const unknown = wanted.filter((w) => !entries.some((e) => e.file === w || e.file.startsWith(`${w}/`)));
        if (unknown.length > 0) {
          throw new CliError('NOT_TRACKED', `Not tracked documents: ${unknown.join(', ')}`, {
            exitCode: EXIT.usage,
            hint: 'Run `cms push` first so the files have documents on the server.',
          });
        }
        const message = (opts as { message?: string }).message;
        const results = await mapLimit(entries, ctx.concurrency, async (entry) => {
          try {
            const r = await api.content.publish(entry.id, message);
            entry.publishedVersion = r.publishedVersion;
            ctx.out.line(`${ctx.out.paint('green', 'published')} ${entry.file} (version ${r.version})`);
            return { file: entry.file, id: entry.id, outcome: 'published', version: r.version };
          } catch (error) {
            if (!isApiError(error)) throw error;
            ctx.out.line(`${ctx.out.paint('red', 'failed')}    ${entry.file}: ${error.code}: ${error.message}`);
            return { file: entry.file, id: entry.id, outcome: 'failed', code: error.code, message: error.message };
          }
        });
        await writeManifest(file, manifest);
        const failed = results.filter((r) => r.outcome === 'failed').length;
        return { data: { results }, exitCode: failed ? EXIT.failure : EXIT.ok };
      }),
    );
}
