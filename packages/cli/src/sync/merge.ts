/**
 * Three-way merge of a file with the server's version against the base (the text of the last
 * sync). Frontmatter merges key by key (core's `mergeFrontmatter`, which the Studio's conflict panel
 * uses too): a key changed on one side only takes that side, the same change on both sides is no
 * conflict, different changes of one key are. The body merges line by
 * line with diff3 (node-diff3): edits of different lines merge, edits of the same or adjacent
 * lines conflict, as git's do. A clean merge is the local file with the other side's changes
 * patched in (its comments, quoting and key order kept); a conflicted one, written only under
 * `--merge`, is the whole text merged by lines with git's markers.
 */
import { type FieldShapes, mergeFrontmatter } from '@cms/core/source';
import { diff3Merge, merge as mergeLines } from 'node-diff3';
import { FrontmatterError, frontmatterOf, normalizeBody, patchFile, splitFile } from './frontmatter.js';

export type MergeResult =
  | { clean: true; text: string }
  | {
      clean: false;
      /** The text with conflict markers (`<<<<<<< local`, `=======`, `>>>>>>> server`). */
      text: string;
      /** Frontmatter keys both sides changed differently. */
      keys: string[];
      /** Conflicting regions of the body. */
      bodyRegions: number;
    };

export const MARKER_LABELS = { a: 'local', o: 'base', b: 'server' } as const;

function lines(text: string): string[] {
  return text.split('\n');
}

function readFrontmatter(text: string): Record<string, unknown> | undefined {
  try {
    return frontmatterOf(splitFile(text));
  } catch (error) {
    if (error instanceof FrontmatterError) return undefined;
    throw error;
  }
}

/** Merges `ours` (the local file) and `theirs` (the server's text) against `base`. */
export function mergeFiles(base: string, ours: string, theirs: string, fields?: FieldShapes): MergeResult {
  const [b, o, t] = [splitFile(base), splitFile(ours), splitFile(theirs)];
  const fm = [readFrontmatter(base), readFrontmatter(ours), readFrontmatter(theirs)] as const;
  const wholeText = () => {
    const result = mergeLines(lines(ours), lines(base), lines(theirs), { label: MARKER_LABELS });
    return result.result.join('\n');
  };
  // Frontmatter that does not parse on some side: only a merge by lines can tell.
  if (!fm[0] || !fm[1] || !fm[2]) {
    const regions = diff3Merge(lines(ours), lines(base), lines(theirs)).filter((r) => r.conflict).length;
    return regions === 0
      ? { clean: true, text: wholeText() }
      : { clean: false, text: wholeText(), keys: [], bodyRegions: regions };
  }
  const { merged, conflicts } = mergeFrontmatter(fm[0], fm[1], fm[2]);
  const regions = diff3Merge(lines(normalizeBody(o.body)), lines(normalizeBody(b.body)), lines(normalizeBody(t.body)));
  const bodyRegions = regions.filter((r) => r.conflict).length;
  if (conflicts.length > 0 || bodyRegions > 0) {
    return { clean: false, text: wholeText(), keys: conflicts, bodyRegions };
  }
  const body = regions.flatMap((r) => r.ok ?? []).join('\n');
  return { clean: true, text: patchFile(o, merged, body, fields) };
}

/** Whether a text still holds conflict markers written by `cms pull --merge`. */
export function hasConflictMarkers(text: string): boolean {
  return /^<{7} local\r?$/m.test(text) && /^>{7} server\r?$/m.test(text);
}
