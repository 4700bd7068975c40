/**
 * `cms push --publish`: once a push applied every change, the documents it created or updated are
 * published together through a release (all or none, three requests); after a push with conflicts or
 * failures nothing is published.
 */
import type { Release } from '@cms/core';
import type { Context } from '../cli/context.js';
import { manifestPath, readManifest, writeManifest } from '../sync/manifest.js';
import type { PushReport } from '../sync/push.js';
import { printRelease, releaseDocuments } from './release-output.js';

export async function publishPushed(ctx: Context, report: PushReport): Promise<Release | null> {
  const { out } = ctx;
  if (report.summary.failed > 0 || report.summary.conflict > 0) {
    out.log('Nothing published: the push did not apply every change. Fix it, push again with --publish.');
    return null;
  }
  const ids = report.results
    .filter((r) => (r.outcome === 'created' || r.outcome === 'updated') && r.id)
    .map((r) => r.id as string);
  if (ids.length === 0) {
    out.log('Nothing to publish.');
    return null;
  }
  const api = await ctx.api();
  const release = await releaseDocuments(ctx, api, { title: `cms push: ${ids.length} document(s)`, documentIds: ids });
  printRelease(ctx, release);
  if (release.status !== 'published') {
    out.log('Nothing was published: fix the documents above, then `cms publish` them.');
    return release;
  }
  const { serverUrl, project, environment } = ctx.target();
  const file = manifestPath(ctx.config?.dir ?? ctx.cwd, project, environment);
  const manifest = await readManifest(file, { project, environment, serverUrl });
  const published = new Map(release.items.map((item) => [item.documentId, item.publishedVersion]));
  for (const entry of Object.values(manifest.documents)) {
    if (published.has(entry.id)) entry.publishedVersion = published.get(entry.id) ?? null;
  }
  await writeManifest(file, manifest);
  return release;
}
