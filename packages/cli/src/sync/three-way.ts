/**
 * The three sides of a tracked document as texts: the base (the file as last synced, when kept),
 * the local file and the server's version as a file; each side's diff against the base; and their
 * three-way merge. `cms status --diff` shows the diffs, `cms pull` merges.
 */
import type { FieldShapes } from '@cms/core/source';
import type { RemoteEntry, SyncItem } from './classify.js';
import { type MergeResult, mergeFiles } from './merge.js';
import { remoteText } from './pull-text.js';
import { withContent } from './remote-state.js';
import type { SyncState } from './sync-state.js';
import { unifiedDiff } from './text-diff.js';

export interface Sides {
  /** The text of the last sync; undefined when none is kept (synced by an older cms). */
  base: string | undefined;
  local: string | undefined;
  /** The server's version as the file would hold it (its kept source, else the canonical writer). */
  server: string | undefined;
  /** The server's document with its content, when the server side was read. */
  remote: RemoteEntry | undefined;
  fields: FieldShapes | undefined;
}

/** Statuses whose server side differs from the last sync. */
const SERVER_CHANGED = new Set(['changed-remote', 'changed-both', 'moved-remote', 'moved-local']);

export async function sidesOf(state: SyncState, item: SyncItem): Promise<Sides> {
  const typeName = item.entry?.type ?? item.remote?.doc.type ?? item.local?.key.type;
  const type = typeName ? state.typeByName.get(typeName) : undefined;
  const base = await state.bases.get(item.entry?.base);
  let remote: RemoteEntry | undefined;
  let server: string | undefined;
  if (item.remote && type && (SERVER_CHANGED.has(item.status) || !item.entry)) {
    remote = await withContent(state.api, item.remote, type);
    server = await remoteText(state.root, undefined, remote, type);
  }
  return { base, local: item.local?.text, server, remote, fields: type?.fields };
}

export interface SideDiffs {
  /** Base -> local file. */
  local?: string;
  /** Base -> server. */
  server?: string;
  /** Without a base: server -> local file. */
  serverToLocal?: string;
}

export function diffsOf(file: string, sides: Sides): SideDiffs {
  const diffs: SideDiffs = {};
  if (sides.base !== undefined) {
    if (sides.local !== undefined) diffs.local = unifiedDiff(file, sides.base, sides.local, ['base', 'local']);
    if (sides.server !== undefined) diffs.server = unifiedDiff(file, sides.base, sides.server, ['base', 'server']);
  } else if (sides.local !== undefined && sides.server !== undefined) {
    diffs.serverToLocal = unifiedDiff(file, sides.server, sides.local, ['server', 'local']);
  }
  return diffs;
}

/** The merge of both sides against the base; undefined when a side or the base is missing. */
export function mergeSides(sides: Sides): MergeResult | undefined {
  if (sides.base === undefined || sides.local === undefined || sides.server === undefined) return undefined;
  return mergeFiles(sides.base, sides.local, sides.server, sides.fields);
}
