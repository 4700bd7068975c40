/**
 * The document the live preview posts (docs/live-preview.md "Messages"): the read API's answer for the
 * draft (`GET /content/{id}?draft=true&resolve=<reference paths>`, in the document's locale), with the
 * frontmatter and body being edited put in its place. A reference whose target the read had resolved
 * stays resolved; one changed in the editor is resolved by `resolveReference` as the read would.
 *
 * Reference paths are the ones `resolve=` accepts (core's `listReferenceFields`): `author`, `seo.author`
 * (dots walk into objects), `related` (an array of references), `blocks.author` (a reference in each
 * item of an array of objects).
 */
import type { ContentDocument } from '../../api/index.js';

/** A reference as `resolve=` answers it (interface.md "Resolved reference object"). */
export interface ResolvedReference {
  documentId: string;
  type: string;
  path: string;
  frontmatter: Record<string, unknown>;
}

function isResolved(value: unknown): value is ResolvedReference {
  return typeof value === 'object' && value !== null && 'documentId' in value && 'frontmatter' in value;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * Rebuilds `value` with each reference slot named by the dotted `path` replaced by `visit(slot, key)`,
 * where `key` is its `resolveErrors` key (`frontmatter.blocks[0].author`). Arrays met on the way are
 * walked item by item, as the read API walks them; everything else is kept as it is.
 */
function mapAt(
  value: unknown,
  segments: readonly string[],
  key: string,
  visit: (slot: unknown, key: string) => unknown,
): unknown {
  if (Array.isArray(value)) return value.map((item, i) => mapAt(item, segments, `${key}[${i}]`, visit));
  if (segments.length === 0) return visit(value, key);
  if (!isPlainObject(value) || !Object.hasOwn(value, segments[0] as string)) return value;
  const [name, ...rest] = segments as [string, ...string[]];
  return { ...value, [name]: mapAt(value[name], rest, `${key}.${name}`, visit) };
}

/** Every reference slot of a frontmatter at the given paths, with its `resolveErrors` key. */
function forEachSlot(
  frontmatter: Record<string, unknown>,
  referencePaths: readonly string[],
  visit: (slot: unknown, key: string) => void,
): void {
  for (const path of referencePaths) {
    mapAt(frontmatter, path.split('.'), 'frontmatter', (slot, key) => {
      visit(slot, key);
      return slot;
    });
  }
}

/** The resolved targets a read answered, by document id. */
export function resolvedTargetsOf(
  read: ContentDocument,
  referencePaths: readonly string[],
): Map<string, ResolvedReference> {
  const found = new Map<string, ResolvedReference>();
  forEachSlot(read.frontmatter, referencePaths, (slot) => {
    if (isResolved(slot)) found.set(slot.documentId, slot);
  });
  return found;
}

/** Reference ids of the edited frontmatter that no resolved target is known for yet. */
export function unresolvedIds(
  frontmatter: Record<string, unknown>,
  referencePaths: readonly string[],
  known: ReadonlyMap<string, ResolvedReference>,
): string[] {
  const ids = new Set<string>();
  forEachSlot(frontmatter, referencePaths, (slot) => {
    if (typeof slot === 'string' && slot !== '' && !known.has(slot)) ids.add(slot);
  });
  return [...ids];
}

/**
 * The read's document with the edited frontmatter (references resolved where known) and body. `saved`:
 * the draft as the editor last saved it, whose own fields (`draftRevision`, `version`, `updatedAt`,
 * `hasUnpublishedChanges`...) a read would answer now, rather than those of the read made when the
 * preview opened; null in a release's view, whose fields are the release's.
 */
export function composePreviewDocument(
  read: ContentDocument,
  edited: { frontmatter: Record<string, unknown>; body: string },
  referencePaths: readonly string[],
  known: ReadonlyMap<string, ResolvedReference>,
  saved: ContentDocument | null = null,
): ContentDocument {
  let frontmatter: Record<string, unknown> = { ...edited.frontmatter };
  const resolveErrors: ContentDocument['resolveErrors'] = {};
  const resolve = (slot: unknown, key: string) => {
    if (typeof slot !== 'string' || slot === '') return slot;
    const target = known.get(slot);
    if (target) return target;
    // Kept as the read would report it until the target is fetched (or when it cannot be).
    const earlier = read.resolveErrors[key];
    if (earlier && earlier.ref.documentId === slot) resolveErrors[key] = earlier;
    return slot;
  };
  for (const path of referencePaths) {
    frontmatter = mapAt(frontmatter, path.split('.'), 'frontmatter', resolve) as Record<string, unknown>;
  }
  const { source: _source, ...rest } = read;
  const {
    source: _s,
    frontmatter: _f,
    body: _b,
    resolveErrors: _r,
    ...current
  } = saved ?? ({} as Partial<ContentDocument>);
  return { ...rest, ...current, frontmatter, body: edited.body, resolveErrors };
}
