/** `cms publish <path...>`: publishes tracked documents, named by file, folder or server path. */
import type { Command } from 'commander';
import { isApiError } from '../api/api-error.js';
import { mapLimit } from '../api/limiter.js';
import { EXIT } from '../cli/exit-codes.js';
import { action } from '../cli/run-command.js';
import { manifestPath, readManifest, writeManifest } from '../sync/manifest.js';
import { selectDocuments } from '../sync/select-documents.js';

export function registerContentCommands(program: Command): void {
  program
    .command('publish')
    .description('Publish the documents of these files (push them first)')
    .argument('<paths...>', 'tracked files or folders, or server paths (hello-world, post:hello-world)')
    .option('-m, --message <text>', 'change summary recorded with the version')
    .action(
      action(async (ctx, paths, opts) => {
        const { serverUrl, project, environment } = ctx.target();
        const api = await ctx.api();
        const root = ctx.config?.contentRoot ?? ctx.cwd;
        const file = manifestPath(ctx.config?.dir ?? ctx.cwd, project, environment);
        const manifest = await readManifest(file, { project, environment, serverUrl });
        const { entries } = selectDocuments(paths as string[], Object.values(manifest.documents), {
          cwd: ctx.cwd,
          root,
          manifestFile: file,
        });
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
