/**
 * The fallback of frontmatter patching when yaml-patch.ts cannot edit in place (anchors, tags,
 * complex keys): the Document API sets the changed top-level values and re-renders the YAML. Keys,
 * their order and comments stay; spacing is normalized. Untouched plain strings stay plain (plain
 * dates too); new values are written for YAML 1.1 readers like everything the CLI writes.
 */
import { type Document, isCollection, isMap, isPair, isScalar, type Node, visit } from 'yaml';
import {
  createStyledNode,
  type FieldShape,
  shapeOfKey,
  Verbatim,
  WRITE_OPTIONS,
  WRITER_SCHEMA,
} from './yaml-render.js';

export function rerenderYaml(
  src: string,
  doc: Document,
  before: Record<string, unknown>,
  after: Record<string, unknown>,
  shape: FieldShape | undefined,
): string | undefined {
  if (!isMap(doc.contents)) return undefined;
  visit(doc, {
    Scalar(key, node) {
      if (key === 'key' || node.type !== 'PLAIN' || typeof node.value !== 'string') return;
      if (!node.value.includes('\n')) node.value = new Verbatim(node.value);
    },
  });
  doc.setSchema('1.2', WRITER_SCHEMA);
  const map = doc.contents;
  for (const key of Object.keys(before)) if (!(key in after)) doc.delete(key);
  for (const [key, value] of Object.entries(after)) {
    if (key in before && JSON.stringify(before[key]) === JSON.stringify(value)) continue;
    const pair = map.items.find((item) => isPair(item) && isScalar(item.key) && String(item.key.value) === key);
    const old = (pair?.value as Node | null | undefined) ?? undefined;
    const flow = isCollection(old) && Boolean(old.flow);
    const node = createStyledNode(doc, value, shapeOfKey(shape, key), { node: old, flow });
    if (pair) pair.value = node;
    else doc.set(key, node);
  }
  const yaml = doc.toString(WRITE_OPTIONS);
  // Blank lines the user left before the closing fence stay.
  const trailing = /\n*$/.exec(src)?.[0] ?? '';
  return trailing.length > 1 ? yaml.replace(/\n*$/, trailing) : yaml;
}
