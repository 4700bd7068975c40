/**
 * Three-way merge of a document's parts against the version both sides started from: the CLI's pull
 * (packages/cli/src/sync/merge.ts) and the Studio's conflict panel use this one implementation.
 * Frontmatter merges key by key: a key changed on one side only takes that side, the same change on
 * both sides is no conflict, different changes of one key are. A body merges line by line with diff3
 * (node-diff3): edits of different lines merge, edits of the same or adjacent lines conflict, as git's do.
 */
import { diff3Merge } from 'node-diff3';
import { deepEqual } from './deep-equal.js';

/** One key of a frontmatter merge. */
export interface MergedKey {
  key: string;
  base: unknown;
  mine: unknown;
  theirs: unknown;
  /** What the merge keeps: the side that changed it, or mine on a conflict. */
  merged: unknown;
  /** Who changed it from the base. */
  changedBy: 'nobody' | 'mine' | 'theirs' | 'both-same' | 'both';
}

/** A frontmatter merge: the merged object (keys in order mine, theirs, base) and each key's story. */
export interface FrontmatterMerge {
  merged: Record<string, unknown>;
  keys: MergedKey[];
  /** Keys both sides changed differently (the merge kept mine). */
  conflicts: string[];
}

/** Key by key: what each side changed from the base; both changing a key differently is a conflict. */
export function mergeFrontmatter(
  base: Record<string, unknown>,
  mine: Record<string, unknown>,
  theirs: Record<string, unknown>,
): FrontmatterMerge {
  const merged: Record<string, unknown> = {};
  const keys: MergedKey[] = [];
  const conflicts: string[] = [];
  for (const key of new Set([...Object.keys(mine), ...Object.keys(theirs), ...Object.keys(base)])) {
    const [b, m, t] = [base[key], mine[key], theirs[key]];
    const mineChanged = !deepEqual(m, b);
    const theirsChanged = !deepEqual(t, b);
    let value: unknown;
    let changedBy: MergedKey['changedBy'];
    if (deepEqual(m, t)) {
      value = m;
      changedBy = mineChanged ? 'both-same' : 'nobody';
    } else if (!mineChanged) {
      value = t;
      changedBy = 'theirs';
    } else if (!theirsChanged) {
      value = m;
      changedBy = 'mine';
    } else {
      conflicts.push(key);
      value = m;
      changedBy = 'both';
    }
    if (value !== undefined) merged[key] = value;
    keys.push({ key, base: b, mine: m, theirs: t, merged: value, changedBy });
  }
  return { merged, keys, conflicts };
}

/** A line merge: the merged text (conflicting regions take mine) and how many regions conflicted. */
export interface TextMerge {
  text: string;
  conflicts: number;
}

/** Merges `mine` and `theirs` line by line against `base`; where both changed the same lines, mine wins. */
export function mergeText(base: string, mine: string, theirs: string): TextMerge {
  const regions = diff3Merge(mine.split('\n'), base.split('\n'), theirs.split('\n'));
  let conflicts = 0;
  const lines = regions.flatMap((region) => {
    if (region.ok) return region.ok;
    conflicts += 1;
    return region.conflict?.a ?? [];
  });
  return { text: lines.join('\n'), conflicts };
}
