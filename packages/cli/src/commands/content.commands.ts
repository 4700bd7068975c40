/**
 * `cms publish <path...>`: publishes documents named by tracked file or folder, server path or id
 * (documents created through the API or the Studio included), all or nothing through a release of
 * their own (a few requests whatever their number); `--at` schedules that release instead. A document
 * whose file changed since the last sync refuses the whole publish (push first).
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { DigestEntry, Release } from '@cms/core';
import type { Context } from '../cli/context.js';
import { EXIT } from '../cli/exit-codes.js';
import type { CommandResult } from '../cli/run-command.js';
import { contentHash } from '../sync/content-hash.js';
import { DEFAULT_LOCALE } from '../sync/file-naming.js';
import { frontmatterOf, normalizeBody, splitFile } from '../sync/frontmatter.js';
import { type ManifestEntry, manifestPath, readManifest, writeManifest } from '../sync/manifest.js';
import { selectDocuments } from '../sync/select-documents.js';
import { parseInstant, printRelease, releaseDocuments, releaseExit } from './release-output.js';

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

/** The result line of a document the manifest does not track (named by server path or id). */
function remoteResult(ctx: Context, release: Release, doc: DigestEntry): Record<string, unknown> {
  const item = release.items.find((i) => i.documentId === doc.documentId);
  const name = `${doc.type}:${doc.path}${doc.locale === DEFAULT_LOCALE ? '' : ` (${doc.locale})`}`;
  const base = { file: null, id: doc.documentId, type: doc.type, path: doc.path, locale: doc.locale };
  if (release.status === 'scheduled') return { ...base, outcome: 'scheduled' };
  if (release.status !== 'published' || !item) {
    const message = item?.error ?? 'held back: another document of the release is invalid';
    ctx.out.line(`${ctx.out.paint('red', 'failed')}    ${name}: ${message}`);
    return { ...base, outcome: 'failed', code: 'RELEASE_FAILED', message };
  }
  ctx.out.line(`${ctx.out.paint('green', 'published')} ${name} (version ${item.publishedVersion}, not tracked here)`);
  return { ...base, outcome: 'published', version: item.publishedVersion };
}

/** `cms publish <paths...>`. */
export async function publish(
  ctx: Context,
  paths: string[],
  opts: { message?: string; at?: string },
): Promise<CommandResult> {
  const { serverUrl, project, environment } = ctx.target();
  const o = opts as { message?: string; at?: string };
  const at = o.at === undefined ? undefined : parseInstant(o.at);
  const api = await ctx.api();
  const root = ctx.config?.contentRoot ?? ctx.cwd;
  const file = manifestPath(ctx.config?.dir ?? ctx.cwd, project, environment);
  const manifest = await readManifest(file, { project, environment, serverUrl });
  const { entries, remote } = await selectDocuments(paths as string[], Object.values(manifest.documents), {
    cwd: ctx.cwd,
    root,
    manifestFile: file,
    digest: () => api.content.digest(),
  });
  // Publishing makes the server's draft live: a file edited since the last sync would look
  // published while its edit is not on the server. One such file holds back all of them.
  const unpushed: { file: string; id: string; outcome: 'failed'; code: 'NOT_PUSHED'; message: string }[] = [];
  for (const entry of entries) {
    const local = await localState(root, entry);
    if (local === 'synced') continue;
    const text =
      local === 'missing'
        ? 'the file is gone here: `cms push` would delete the document'
        : 'the file has changes that are not on the server: `cms push` them first';
    ctx.out.line(`${ctx.out.paint('red', 'failed')}    ${entry.file}: ${text}`);
    unpushed.push({ file: entry.file, id: entry.id, outcome: 'failed', code: 'NOT_PUSHED', message: text });
  }
  if (unpushed.length > 0) {
    ctx.out.log(
      'Nothing published. Run `cms push`, then publish again (or undo the local edits to publish the server drafts as they are).',
    );
    return { data: { results: unpushed }, exitCode: EXIT.failure };
  }
  const count = entries.length + remote.length;
  const release = await releaseDocuments(ctx, api, {
    title: o.message ?? `cms publish: ${count} document(s)`,
    documentIds: [...entries.map((entry) => entry.id), ...remote.map((d) => d.documentId)],
    ...(at ? { at } : {}),
  });
  const byId = new Map(release.items.map((item) => [item.documentId, item]));
  const results: Array<Record<string, unknown>> = entries.map((entry) => {
    const item = byId.get(entry.id);
    if (release.status === 'scheduled') return { file: entry.file, id: entry.id, outcome: 'scheduled' };
    if (release.status !== 'published' || !item) {
      const message = item?.error ?? 'held back: another document of the release is invalid';
      ctx.out.line(`${ctx.out.paint('red', 'failed')}    ${entry.file}: ${message}`);
      return { file: entry.file, id: entry.id, outcome: 'failed', code: 'RELEASE_FAILED', message };
    }
    entry.publishedVersion = item.publishedVersion;
    ctx.out.line(`${ctx.out.paint('green', 'published')} ${entry.file} (version ${item.publishedVersion})`);
    return { file: entry.file, id: entry.id, outcome: 'published', version: item.publishedVersion };
  });
  results.push(...remote.map((doc) => remoteResult(ctx, release, doc)));
  await writeManifest(file, manifest);
  if (release.status === 'scheduled') printRelease(ctx, { ...release, items: [] });
  // The summary a CI log ends with, whatever the number of lines above it.
  if (release.status === 'published')
    ctx.out.log(`Published ${results.length} document(s) together, through release ${release.id}.`);
  if (release.status === 'failed') ctx.out.log('Nothing was published: fix the documents above and publish again.');
  return { data: { results, release: { ...release, items: undefined } }, exitCode: releaseExit(release) };
}
