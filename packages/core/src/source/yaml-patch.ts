/**
 * Applies new frontmatter to YAML text by editing only what changed (CLI notes §2: never reformat
 * YAML the user did not change). It walks the parsed document and the old and new values together,
 * at any depth: a changed scalar gets new bytes in its own range (quote style kept), a new key or list
 * item is inserted beside its siblings with their indentation, a removed one loses its lines, block
 * stays block and flow stays flow. Everything else keeps its bytes: comments, spacing, key order,
 * the flow lists and plain dates nobody changed. When a change cannot be made that way (anchors,
 * tags, complex keys) it answers undefined and the caller re-renders.
 */

import {
  type Document,
  isAlias,
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
import { deepEqual as isDeepStrictEqual } from './deep-equal.js';
import {
  type FieldShape,
  renderBlockItem,
  renderBlockPairs,
  renderBlockValue,
  renderFlowPair,
  renderFlowValue,
  shapeOfItem,
  shapeOfKey,
  type YamlStyle,
} from './yaml-render.js';
import {
  afterColon,
  applyEdits,
  columnOf,
  dashOf,
  detectStyle,
  type Edit,
  hasProps,
  isBlock,
  isPadded,
  lineStart,
  rangeOf,
  startsLine,
  throughLine,
} from './yaml-source.js';

interface Patcher {
  src: string;
  edits: Edit[];
  style: YamlStyle;
}

/** Where a value stands: inside a flow collection, after `key:` of a block mapping, or after `-` of a block list. */
type Place = { kind: 'flow'; padded: boolean } | { kind: 'pair'; key: Node } | { kind: 'item' };

type Obj = Record<string, unknown>;

function isObject(value: unknown): value is Obj {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/** Replaces a whole value with a new rendering in its place's style. */
function replace(p: Patcher, node: Node | null, after: unknown, shape: FieldShape | undefined, place: Place): boolean {
  if (hasProps(node)) return false;
  const range = rangeOf(node);
  if (place.kind === 'flow') {
    if (!range) return false;
    p.edits.push({ start: range[0], end: range[1], text: renderFlowValue(after, shape, { node }, place.padded) });
    return true;
  }
  const indicator = place.kind === 'pair' ? afterColon(p.src, place.key) : dashOf(p.src, node);
  if (indicator === undefined) return false;
  const start = place.kind === 'pair' ? indicator : indicator + 1;
  const column = place.kind === 'pair' ? columnOf(p.src, rangeOf(place.key)?.[0] ?? 0) : columnOf(p.src, indicator);
  const flow = isCollection(node) && Boolean(node.flow);
  const rendered = renderBlockValue(after, shape, { node, flow }, column, place.kind === 'item', p.style);
  const end = range ? range[1] : start;
  if (rendered.inline && !isBlock(node)) {
    // Same line: only the value's own bytes change; a comment after it stays.
    const from = range && range[0] > start ? range[0] : start;
    p.edits.push({ start: from, end, text: from === start ? rendered.text : rendered.text.slice(1) });
    return true;
  }
  const through = throughLine(p.src, end);
  p.edits.push({ start, end: through, text: rendered.inline ? `${rendered.text}\n` : rendered.text });
  return true;
}

function patchValue(
  p: Patcher,
  node: Node | null,
  before: unknown,
  after: unknown,
  shape: FieldShape | undefined,
  place: Place,
): boolean {
  if (isDeepStrictEqual(before, after)) return true;
  const mark = p.edits.length;
  if (isMap(node) && isObject(before) && isObject(after) && patchMap(p, node, before, after, shape)) return true;
  p.edits.length = mark;
  if (isSeq(node) && Array.isArray(before) && Array.isArray(after) && patchSeq(p, node, before, after, shape))
    return true;
  p.edits.length = mark;
  return replace(p, node, after, shape, place);
}

interface Entry {
  key: Node;
  value: Node | null;
  name: string;
}

function entriesOf(map: YAMLMap): Entry[] | undefined {
  const entries: Entry[] = [];
  for (const pair of map.items) {
    if (!isPair(pair) || !isScalar(pair.key) || !pair.key.range) return undefined;
    entries.push({ key: pair.key, value: (pair.value as Node | null) ?? null, name: String(pair.key.value) });
  }
  return entries;
}

function entryEnd(entry: Entry): number {
  return rangeOf(entry.value)?.[1] ?? (rangeOf(entry.key)?.[1] as number);
}

function patchMap(p: Patcher, map: YAMLMap, before: Obj, after: Obj, shape: FieldShape | undefined): boolean {
  if (hasProps(map)) return false;
  const entries = entriesOf(map);
  if (!entries || entries.length === 0) return false;
  const removed = entries.filter((e) => !(e.name in after));
  const added = Object.keys(after).filter((k) => !(k in before));
  // A block mapping left without keys would read as null, and a flow one loses its only item: re-render.
  if (removed.length === entries.length) return false;
  if (map.flow && removed.length > 1) return false;
  for (const entry of entries) {
    if (!(entry.name in after) || isDeepStrictEqual(before[entry.name], after[entry.name])) continue;
    const at: Place = map.flow ? { kind: 'flow', padded: isPadded(p.src, map) } : { kind: 'pair', key: entry.key };
    if (!patchValue(p, entry.value, before[entry.name], after[entry.name], shapeOfKey(shape, entry.name), at))
      return false;
  }
  for (const entry of removed) {
    const index = entries.indexOf(entry);
    const keyStart = rangeOf(entry.key)?.[0] as number;
    if (map.flow) {
      const next = entries[index + 1];
      const previous = entries[index - 1];
      if (next) p.edits.push({ start: keyStart, end: rangeOf(next.key)?.[0] as number, text: '' });
      else if (previous) p.edits.push({ start: entryEnd(previous), end: entryEnd(entry), text: '' });
      continue;
    }
    if (!startsLine(p.src, keyStart)) return false;
    p.edits.push({ start: lineStart(p.src, keyStart), end: throughLine(p.src, entryEnd(entry)), text: '' });
  }
  if (added.length > 0) {
    const last = entries[entries.length - 1] as Entry;
    const values = Object.fromEntries(added.map((k) => [k, after[k]]));
    if (map.flow) {
      const padded = isPadded(p.src, map);
      const comma = separatorOf(
        p.src,
        entries.map((e) => [rangeOf(e.key)?.[0] as number, entryEnd(e)]),
      );
      const text = added.map((k) => `${comma}${renderFlowPair(k, after[k], shapeOfKey(shape, k), padded)}`).join('');
      p.edits.push({ start: entryEnd(last), end: entryEnd(last), text });
    } else {
      const at = throughLine(p.src, entryEnd(last));
      const column = columnOf(p.src, rangeOf(entries[0]?.key)?.[0] as number);
      const lead = at > 0 && p.src[at - 1] !== '\n' ? '\n' : '';
      p.edits.push({ start: at, end: at, text: lead + renderBlockPairs(values, shape, column, p.style) });
    }
  }
  return true;
}

/** The comma between the last two items of a flow collection as written (`,` or `, `), else `, `. */
function separatorOf(src: string, ranges: Array<[number, number]>): string {
  const last = ranges[ranges.length - 1];
  const previous = ranges[ranges.length - 2];
  if (!last || !previous) return ', ';
  const between = src.slice(previous[1], last[0]);
  return /^[ \t]*,[ \t]*$/.test(between) ? between.trimStart() || ',' : ', ';
}

function patchSeq(
  p: Patcher,
  seq: YAMLSeq,
  before: unknown[],
  after: unknown[],
  shape: FieldShape | undefined,
): boolean {
  if (hasProps(seq) || before.length === 0 || after.length === 0) return false;
  const items = seq.items as Array<Node | null>;
  if (items.length !== before.length || items.some((item) => isPair(item) || !rangeOf(item))) return false;
  const itemShape = shapeOfItem(shape);
  const place: Place = seq.flow ? { kind: 'flow', padded: isPadded(p.src, seq) } : { kind: 'item' };
  // Same items at both ends stay untouched; the middle is patched item by item, the rest inserted or removed.
  const shortest = Math.min(before.length, after.length);
  let head = 0;
  while (head < shortest && isDeepStrictEqual(before[head], after[head])) head++;
  let tail = 0;
  while (tail < shortest - head && isDeepStrictEqual(before[before.length - 1 - tail], after[after.length - 1 - tail]))
    tail++;
  const oldCount = before.length - head - tail;
  const newCount = after.length - head - tail;
  const common = Math.min(oldCount, newCount);
  for (let i = head; i < head + common; i++) {
    if (!patchValue(p, items[i] ?? null, before[i], after[i], itemShape, place)) return false;
  }
  const at = head + common;
  if (newCount > oldCount) return insertItems(p, seq, items, at, after.slice(at, at + newCount - common), itemShape);
  if (oldCount > newCount) return removeItems(p, seq, items, at, at + oldCount - common);
  return true;
}

function insertItems(
  p: Patcher,
  seq: YAMLSeq,
  items: Array<Node | null>,
  index: number,
  values: unknown[],
  shape: FieldShape | undefined,
): boolean {
  if (seq.flow) {
    const texts = values.map((v) => renderFlowValue(v, shape, { node: undefined }, isPadded(p.src, seq)));
    const next = rangeOf(items[index]);
    const comma = separatorOf(
      p.src,
      items.map((item) => rangeOf(item) as [number, number]),
    );
    if (next) p.edits.push({ start: next[0], end: next[0], text: `${texts.join(comma)}${comma}` });
    else {
      const end = rangeOf(items[index - 1])?.[1] as number;
      p.edits.push({ start: end, end, text: `${comma}${texts.join(comma)}` });
    }
    return true;
  }
  const firstDash = dashOf(p.src, items[0]);
  if (firstDash === undefined || !startsLine(p.src, firstDash)) return false;
  const column = columnOf(p.src, firstDash);
  const text = values.map((v) => renderBlockItem(v, shape, column, p.style)).join('');
  const nextDash = index < items.length ? dashOf(p.src, items[index]) : undefined;
  if (nextDash !== undefined) {
    if (!startsLine(p.src, nextDash)) return false;
    const at = lineStart(p.src, nextDash);
    p.edits.push({ start: at, end: at, text });
  } else {
    const at = throughLine(p.src, rangeOf(items[items.length - 1])?.[1] as number);
    p.edits.push({ start: at, end: at, text: (p.src[at - 1] === '\n' ? '' : '\n') + text });
  }
  return true;
}

function removeItems(p: Patcher, seq: YAMLSeq, items: Array<Node | null>, from: number, to: number): boolean {
  const first = rangeOf(items[from]) as [number, number];
  const last = rangeOf(items[to - 1]) as [number, number];
  if (seq.flow) {
    const next = rangeOf(items[to]);
    const previous = rangeOf(items[from - 1]);
    if (next) p.edits.push({ start: first[0], end: next[0], text: '' });
    else if (previous) p.edits.push({ start: previous[1], end: last[1], text: '' });
    else return false;
    return true;
  }
  const dash = dashOf(p.src, items[from]);
  if (dash === undefined || !startsLine(p.src, dash)) return false;
  p.edits.push({ start: lineStart(p.src, dash), end: throughLine(p.src, last[1]), text: '' });
  return true;
}

/**
 * The YAML text (LF) changed from `before` to `after` with the fewest bytes touched, or undefined
 * when that cannot be done in place. The caller checks that the result reads back as `after`.
 */
export function patchYamlText(
  src: string,
  doc: Document,
  before: Obj,
  after: Obj,
  shape: FieldShape | undefined,
): string | undefined {
  const root = doc.contents;
  if (!isMap(root)) return undefined;
  let aliased = false;
  visit(doc, {
    Alias() {
      aliased = true;
      return visit.BREAK;
    },
  });
  if (aliased || isAlias(root)) return undefined;
  const p: Patcher = { src, edits: [], style: detectStyle(doc, src) };
  if (!patchMap(p, root, before, after, shape)) return undefined;
  return applyEdits(src, p.edits);
}
