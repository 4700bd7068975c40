/**
 * Reading positions in YAML source for in-place edits (yaml-patch.ts): where a line starts, the
 * column of a key, the `:` after a key and the `-` before a list item, how the file indents, and
 * applying a set of edits from the end backwards.
 */
import {
  type Document,
  isCollection,
  isMap,
  isPair,
  isScalar,
  isSeq,
  type Node,
  visit,
  type YAMLMap,
  type YAMLSeq,
} from 'yaml';
import { DEFAULT_STYLE, type YamlStyle } from './yaml-render.js';

export interface Edit {
  start: number;
  end: number;
  text: string;
}

export function lineStart(src: string, at: number): number {
  return src.lastIndexOf('\n', at - 1) + 1;
}

export function columnOf(src: string, at: number): number {
  return at - lineStart(src, at);
}

/** `at` when it starts a line, else the start of the next line (the rest of the line, comment included, goes along). */
export function throughLine(src: string, at: number): number {
  if (at > 0 && src[at - 1] === '\n') return at;
  const end = src.indexOf('\n', at);
  return end < 0 ? src.length : end + 1;
}

/** Only indentation between the start of the line and `at` (so the lines from there can be cut). */
export function startsLine(src: string, at: number): boolean {
  return /^[ \t]*$/.test(src.slice(lineStart(src, at), at));
}

export function rangeOf(node: Node | null | undefined): [number, number] | undefined {
  const range = node?.range;
  return range ? [range[0], range[1]] : undefined;
}

/** Anchors and tags make a value more than its text: such values are left to the re-render. */
export function hasProps(node: Node | null | undefined): boolean {
  return Boolean(node && ((node as { anchor?: string }).anchor || node.tag));
}

/**
 * Whether collections inside a flow collection are written `[ a ]` rather than `[a]`, for the new
 * ones it gets: like its first nested collection, else like itself.
 */
export function isPadded(src: string, collection: YAMLMap | YAMLSeq): boolean {
  const padded = (node: Node) => {
    const start = rangeOf(node)?.[0];
    return start !== undefined && src[start + 1] === ' ';
  };
  for (const item of collection.items) {
    const value = isPair(item) ? item.value : item;
    if (isCollection(value) && value.items.length > 0) return padded(value);
  }
  return padded(collection);
}

export function isBlock(node: Node | null | undefined): boolean {
  return (isCollection(node) && !node.flow) || (isScalar(node) && String(node.type).startsWith('BLOCK'));
}

/** The position right after the `:` of a pair whose key is `key`. */
export function afterColon(src: string, key: Node): number | undefined {
  const range = rangeOf(key);
  if (!range) return undefined;
  let at = range[1];
  while (src[at] === ' ' || src[at] === '\t') at++;
  return src[at] === ':' ? at + 1 : undefined;
}

/** The position of the `-` before a block list item. */
export function dashOf(src: string, item: Node | null | undefined): number | undefined {
  const range = rangeOf(item);
  if (!range) return undefined;
  let at = range[0] - 1;
  while (at >= 0 && /[ \t\r\n]/.test(src[at] as string)) at--;
  return src[at] === '-' ? at : undefined;
}

/** Spaces per level and list indentation as the file writes them, for the lines it gains. */
export function detectStyle(doc: Document, src: string): YamlStyle {
  const style = { ...DEFAULT_STYLE };
  let indentSeen = false;
  let seqSeen = false;
  visit(doc, {
    Pair(_, pair) {
      const key = rangeOf(pair.key as Node);
      const value = pair.value as Node | null;
      if (!key || !isCollection(value) || value.flow || !value.range) return;
      const column = columnOf(src, key[0]);
      if (isMap(value) && !indentSeen) {
        const first = rangeOf(value.items[0]?.key as Node);
        if (first && columnOf(src, first[0]) > column) {
          style.indent = columnOf(src, first[0]) - column;
          indentSeen = true;
        }
      }
      if (isSeq(value) && !seqSeen) {
        style.indentSeq = columnOf(src, value.range[0]) > column;
        seqSeen = true;
      }
    },
  });
  return style;
}

export function applyEdits(src: string, edits: Edit[]): string | undefined {
  // From the end backwards. Insertions at one point keep the order they were made in (a nested
  // mapping's new key before its parent's), so the later one is applied first.
  const sorted = edits
    .map((edit, index) => ({ edit, index }))
    .sort((a, b) => b.edit.start - a.edit.start || b.edit.end - a.edit.end || b.index - a.index)
    .map(({ edit }) => edit);
  let out = src;
  let limit = Number.POSITIVE_INFINITY;
  for (const edit of sorted) {
    if (edit.end > limit) return undefined; // overlapping edits: leave it to the re-render
    out = out.slice(0, edit.start) + edit.text + out.slice(edit.end);
    limit = edit.start;
  }
  return out;
}
