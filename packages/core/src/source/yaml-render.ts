/**
 * Writing YAML values for the weakest reader (CLI notes §2): YAML 1.1 traps (`no`, `on`, `3.10`,
 * `0123`, `10:00`) quoted, no folding, and dates of `date` fields written plain at any depth
 * (`date: 2024-01-01`, `events: [{ at: 2024-01-01 }]`), as a person writes them and as readers of
 * YAML timestamps (Astro's `z.date()`) expect. Read back with the 1.2 core schema a plain date is
 * the same string, so the round trip is exact.
 */
import {
  Document,
  isCollection,
  isMap,
  isScalar,
  isSeq,
  type Node,
  type ScalarTag,
  type SchemaOptions,
  type ToStringOptions,
  visit,
} from 'yaml';

/** What the writer needs of a field's schema: its kind and, for objects and lists, what they hold. */
export interface FieldShape {
  kind: string;
  fields?: Readonly<Record<string, FieldShape>> | undefined;
  items?: FieldShape | undefined;
}

/** The top-level fields of a type (`SchemaType.fields`): their shapes, by name. */
export type FieldShapes = Readonly<Record<string, FieldShape>>;

/** The shape of what an object field (or the frontmatter itself) holds under `key`. */
export function shapeOfKey(shape: FieldShape | undefined, key: string): FieldShape | undefined {
  return shape?.kind === 'object' ? shape.fields?.[key] : undefined;
}

/** The shape of an item of a list field. */
export function shapeOfItem(shape: FieldShape | undefined): FieldShape | undefined {
  return shape?.kind === 'array' ? shape.items : undefined;
}

/** The frontmatter as an object field whose fields are the type's. */
export function rootShape(fields: FieldShapes | undefined): FieldShape {
  return { kind: 'object', fields: fields ?? {} };
}

/** A date (`2024-01-01`) or an ISO 8601 date-time with a zone: a YAML 1.1 timestamp when plain. */
export const PLAIN_DATE = /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2}))?$/;

export function isDateText(value: unknown): value is string {
  return typeof value === 'string' && PLAIN_DATE.test(value);
}

/** A string the writer prints exactly as given, unquoted (a plain date). */
export class Verbatim {
  constructor(readonly text: string) {}
}

// Never printed as a tag (`default`): the scalar's text is written as it is.
export const verbatimTag: ScalarTag = {
  tag: 'tag:cms.local,2026:verbatim',
  default: true,
  identify: (value) => value instanceof Verbatim,
  resolve: (text) => text,
  stringify: (item) => (item.value as Verbatim).text,
};

export const WRITE_OPTIONS = { lineWidth: 0, flowCollectionPadding: true } as const satisfies ToStringOptions;

/** The indentation a file uses: spaces per level, and whether a list under a key is indented. */
export interface YamlStyle {
  indent: number;
  indentSeq: boolean;
}

export const DEFAULT_STYLE: YamlStyle = { indent: 2, indentSeq: true };

/** The value with the dates of date fields (at any depth) marked to be written plain. */
function markDates(value: unknown, shape: FieldShape | undefined): unknown {
  if (shape?.kind === 'date' && isDateText(value)) return new Verbatim(value);
  if (Array.isArray(value)) return value.map((item) => markDates(item, shapeOfItem(shape)));
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, markDates(v, shapeOfKey(shape, k))]));
  }
  return value;
}

/** Schema options of every document the CLI writes: YAML 1.1 traps quoted, plain dates verbatim. */
export const WRITER_SCHEMA: SchemaOptions = { compat: 'yaml-1.1', customTags: [verbatimTag] };

function newDocument(value: unknown): Document {
  return new Document(value, { version: '1.2', ...WRITER_SCHEMA, aliasDuplicateObjects: false });
}

function toText(doc: Document, style: YamlStyle): string {
  return doc.toString({ ...WRITE_OPTIONS, indent: style.indent, indentSeq: style.indentSeq });
}

/** The canonical YAML of a whole frontmatter mapping, in its key order ('' when empty). */
export function renderMapping(
  value: Record<string, unknown>,
  shape: FieldShape | undefined,
  style: YamlStyle = DEFAULT_STYLE,
): string {
  if (Object.keys(value).length === 0) return '';
  return toText(newDocument(markDates(value, shape)), style);
}

/** How the value it replaces was written: its quote style carries over, and so does a plain date. */
export interface Like {
  node: Node | null | undefined;
  /** Write collections in flow style (`[a, b]`, `{ a: 1 }`). */
  flow?: boolean;
}

const QUOTED = new Set(['QUOTE_SINGLE', 'QUOTE_DOUBLE']);

function isQuoted(node: Node | null | undefined): boolean {
  return isScalar(node) && QUOTED.has(String(node.type));
}

/** The value of a single node, its dates marked like the one it replaces. */
function styledValue(value: unknown, shape: FieldShape | undefined, like: Like): unknown {
  const likeNode = like.node;
  if (!isDateText(value)) return markDates(value, shape);
  if (isQuoted(likeNode)) return value;
  const wasPlainDate = isScalar(likeNode) && likeNode.type === 'PLAIN' && isDateText(likeNode.value);
  return shape?.kind === 'date' || wasPlainDate ? new Verbatim(value) : value;
}

/** A node of `doc` (whose schema is WRITER_SCHEMA) for a value that replaces `like.node`, in its style. */
export function createStyledNode(doc: Document, value: unknown, shape: FieldShape | undefined, like: Like): Node {
  const node = doc.createNode(styledValue(value, shape, like)) as Node;
  const likeNode = like.node;
  if (isScalar(node) && isScalar(likeNode) && typeof node.value === 'string') {
    const type = String(likeNode.type);
    if (QUOTED.has(type) || (type.startsWith('BLOCK') && node.value.includes('\n'))) node.type = likeNode.type;
  }
  if (like.flow && isCollection(node)) node.flow = true;
  if (isCollection(node) && node.flow) quoteMultiline(node);
  return node;
}

/** Inside a flow collection a string of several lines is written `"a\nb"`, never folded over lines. */
function quoteMultiline(node: unknown): void {
  visit(node as Node, {
    Scalar(_, scalar) {
      if (typeof scalar.value === 'string' && scalar.value.includes('\n')) scalar.type = 'QUOTE_DOUBLE';
    },
  });
}

/**
 * The value as it follows `key:` in a block mapping (or `-` in a block list), starting right after
 * the indicator: ` value` on one line, or a block (`\n  a: 1\n`, ` |\n  text\n`) indented for a key
 * at `column`. `inline` tells which of the two it is.
 */
export function renderBlockValue(
  value: unknown,
  shape: FieldShape | undefined,
  like: Like,
  column: number,
  inSeq: boolean,
  style: YamlStyle,
): { text: string; inline: boolean } {
  const doc = newDocument(inSeq ? [null] : { k: null });
  const node = createStyledNode(doc, value, shape, like);
  const container = doc.contents;
  if (isSeq(container)) container.items[0] = node;
  else if (isMap(container)) container.set('k', node);
  const text = toText(doc, style);
  const rest = text.slice(inSeq ? 1 : 2); // after `-` or `k:`
  const inline = rest.indexOf('\n') === rest.length - 1 && !/^ [|>]/.test(rest);
  if (inline) return { text: rest.slice(0, -1), inline };
  const pad = ' '.repeat(column);
  const lines = rest.split('\n');
  const shifted = lines.map((line, index) => (index === 0 || line === '' ? line : `${pad}${line}`));
  return { text: shifted.join('\n'), inline };
}

/**
 * A value as it stands inside a flow collection: always one line; nested collections `[ a ]` when
 * `padded`, else `[a]`, like the collection it goes into.
 */
export function renderFlowValue(value: unknown, shape: FieldShape | undefined, like: Like, padded = true): string {
  const doc = newDocument([null]);
  const node = createStyledNode(doc, value, shape, like);
  const seq = doc.contents;
  if (isSeq(seq)) {
    seq.items[0] = node;
    seq.flow = true;
    quoteMultiline(seq);
  }
  return unwrap(doc, padded);
}

/** The text inside the outer brackets of a one-item flow document. */
function unwrap(doc: Document, padded: boolean): string {
  const text = doc.toString({ ...WRITE_OPTIONS, flowCollectionPadding: padded }).replace(/\n$/, '');
  return padded ? text.slice(2, -2) : text.slice(1, -1);
}

/** A `key: value` entry of a flow mapping. */
export function renderFlowPair(key: string, value: unknown, shape: FieldShape | undefined, padded = true): string {
  const doc = newDocument({ [key]: markDates(value, shape) });
  if (isMap(doc.contents)) {
    doc.contents.flow = true;
    quoteMultiline(doc.contents);
  }
  return unwrap(doc, padded);
}

/** `key: value` lines of a block mapping, for keys at `column`. */
export function renderBlockPairs(
  entries: Record<string, unknown>,
  shape: FieldShape | undefined,
  column: number,
  style: YamlStyle,
): string {
  const text = renderMapping(entries, shape, style);
  const pad = ' '.repeat(column);
  return text
    .split('\n')
    .map((line) => (line === '' ? line : `${pad}${line}`))
    .join('\n');
}

/** An item of a block list, `- value` lines, for a dash at `column`. */
export function renderBlockItem(
  value: unknown,
  shape: FieldShape | undefined,
  column: number,
  style: YamlStyle,
): string {
  const { text } = renderBlockValue(value, shape, { node: undefined }, column, true, style);
  const line = `${' '.repeat(column)}-${text}`;
  return line.endsWith('\n') ? line : `${line}\n`;
}
