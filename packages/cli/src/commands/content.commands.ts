/**
 * `cms publish <path...>`: publishes tracked documents, named by file, folder or server path; a
 * document whose file changed since the last sync is refused (push first), the others go on.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Command } from 'commander';
import { isApiError } from '../api/api-error.js';
import { mapLimit } from '../api/limiter.js';
import { EXIT } from '../cli/exit-codes.js';
import { action } from '../cli/run-command.js';
import { contentHash } from '../sync/content-hash.js';
import { frontmatterOf, normalizeBody, splitFile } from '../sync/frontmatter.js';
import { type ManifestEntry, manifestPath, readManifest, writeManifest } from '../sync/manifest.js';
import { selectDocuments } from '../sync/select-documents.js';

/** Whether the tracked file still holds what was last synced (by content hash, as status compares). */
async function localState(root: string, entry: ManifestEntry): Promise<'synced' | 'changed' | 'missing'> {
  let text: string;
  try {
    text = await readFile(join(root, entry.file), 'utf8');
  } catch {
    return 'missing';
  }
  try {
    const split = splitFile(text);
    return contentHash(frontmatterOf(split), normalizeBody(split.body), entry.format) === entry.hash
      ? 'synced'
      : 'changed';
  } catch {
    return 'changed';
  }
}

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
          // Publishing makes the server's draft live: a file edited since the last sync would look
          // published while its edit is not on the server.
          const local = await localState(root, entry);
          if (local !== 'synced') {
            const text =
              local === 'missing'
                ? 'the file is gone here: `cms push` would delete the document; nothing published'
                : 'the file has changes that are not on the server: `cms push` them first, then publish';
            ctx.out.line(`${ctx.out.paint('red', 'failed')}    ${entry.file}: ${text}`);
            return { file: entry.file, id: entry.id, outcome: 'failed', code: 'NOT_PUSHED', message: text };
          }
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
        if (results.some((r) => r.code === 'NOT_PUSHED'))
          ctx.out.log(
            'Run `cms push`, then publish again (or undo the local edit to publish the server draft as it is).',
          );
        return { data: { results }, exitCode: failed ? EXIT.failure : EXIT.ok };
      }),
    );
}
