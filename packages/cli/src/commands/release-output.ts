/**
 * What `cms release` and `cms publish` share: printing a release, and sending a set of documents out
 * through a release of their own (all or nothing, in a few requests whatever their number).
 */
import type { Release, ReleaseAction } from '@cms/core';
import type { CmsApi } from '../api/cms-api.js';
import { followOperation } from '../api/follow.js';
import type { Context } from '../cli/context.js';
import { CliError, EXIT } from '../cli/exit-codes.js';
import { itemsFollower, publishFollower } from './long-operations.js';

/** Prints a release's state and, with items, each item and its flags. */
export function printRelease(ctx: Context, release: Release): void {
  const { out } = ctx;
  const when = release.scheduledAt ? ` for ${release.scheduledAt} (${release.timeZone ?? 'UTC'})` : '';
  const colour = release.status === 'failed' ? 'red' : release.status === 'published' ? 'green' : 'yellow';
  out.line(
    `${release.id} ${out.paint(colour, release.status)}${when} ${release.title} (${release.itemCount} document(s))`,
  );
  for (const item of release.items) {
    const flags = [
      item.changedSinceAdded ? out.paint('yellow', 'changed since added') : '',
      item.error ? out.paint('red', item.error) : '',
    ].filter(Boolean);
    out.line(`  ${item.action.padEnd(9)} ${item.path}${flags.length > 0 ? `: ${flags.join('; ')}` : ''}`);
  }
}

/** The exit code of a release that was asked to go out: failure when it failed. */
export function releaseExit(release: Release) {
  return release.status === 'failed' ? EXIT.failure : EXIT.ok;
}

/** A valid ISO 8601 instant with an offset or `Z`, else a usage error. */
export function parseInstant(text: string): string {
  const at = new Date(text);
  if (!/[zZ]|[+-]\d\d:?\d\d$/.test(text) || Number.isNaN(at.getTime())) {
    throw new CliError('USAGE', `"${text}" is not an ISO 8601 time with a time zone offset.`, {
      exitCode: EXIT.usage,
      hint: 'Write it like 2026-12-01T09:00:00+01:00 or 2026-12-01T08:00:00Z.',
    });
  }
  return at.toISOString();
}

/** This machine's IANA time zone, kept with a schedule for display. */
export function localTimeZone(): string {
  return Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
}

/**
 * Creates a release of these documents and publishes it now, or schedules it for `at`: three
 * requests (create, add, publish or schedule) for up to 10,000 documents.
 */
export async function releaseDocuments(
  ctx: Context,
  api: CmsApi,
  input: {
    title: string;
    description?: string;
    documentIds: readonly string[];
    action?: ReleaseAction;
    at?: string;
    timeZone?: string;
  },
): Promise<Release> {
  const created = await api.releases.create({
    title: input.title,
    ...(input.description ? { description: input.description } : {}),
  });
  const action = input.action ?? 'publish';
  // Each step of a large release may answer late: each is followed to its end (api/follow.ts).
  await followOperation(ctx, {
    ...itemsFollower(api, created.id, new Set(input.documentIds).size),
    start: () =>
      api.releases.addItems(
        created.id,
        input.documentIds.map((documentId) => ({ documentId, action })),
      ),
  });
  if (input.at === undefined)
    return followOperation(ctx, { ...publishFollower(api, created.id), start: () => api.releases.publish(created.id) });
  return api.releases.schedule(created.id, {
    scheduledAt: input.at,
    timeZone: input.timeZone ?? localTimeZone(),
  });
}
