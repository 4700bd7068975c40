/**
 * Our own frontmatter split (no gray-matter): one leading BOM stripped, CRLF accepted and kept,
 * the body kept as opaque text. YAML goes through `yaml`'s Document API (core schema, unique keys),
 * so `date: 2024-01-01` stays a string and an unchanged value keeps the user's bytes.
 */
import { isDeepStrictEqual } from 'node:util';
import { Document, isCollection, isMap, isPair, isScalar, type Node, parseDocument, stringify } from 'yaml';

export interface SplitFile {
  bom: boolean;
  eol: '\n' | '\r\n';
  /** Everything before the body, exactly as read (BOM excluded): `---`, the YAML, the closing `---`. */
  head: string;
  /** The YAML text between the fences (the file's own line endings), or '' without frontmatter. */
  yaml: string;
  hasFrontmatter: boolean;
  /** The body exactly as read. */
  body: string;
}

const FENCE = /^---[ \t]*$/;

/** Splits file text into head and body, without interpreting the body. */
export function splitFile(text: string): SplitFile {
  const bom = text.startsWith('\uFEFF');
  const content = bom ? text.slice(1) : text;
  const firstBreak = content.indexOf('\n');
  const eol: '\n' | '\r\n' = firstBreak > 0 && content[firstBreak - 1] === '\r' ? '\r\n' : '\n';
  const firstLine = (firstBreak < 0 ? content : content.slice(0, firstBreak)).replace(/\r$/, '');
  if (!FENCE.test(firstLine) || firstBreak < 0) {
    return { bom, eol, head: '', yaml: '', hasFrontmatter: false, body: content };
  }
  let position = firstBreak + 1;
  while (position <= content.length) {
    const end = content.indexOf('\n', position);
    const line = (end < 0 ? content.slice(position) : content.slice(position, end)).replace(/\r$/, '');
    if (FENCE.test(line)) {
      const headEnd = end < 0 ? content.length : end + 1;
      return {
        bom,
        eol,
        head: content.slice(0, headEnd),
        yaml: content.slice(firstBreak + 1, position),
        hasFrontmatter: true,
        body: content.slice(headEnd),
      };
    }
    if (end < 0) break;
    position = end + 1;
  }
  // An opening fence that never closes is not frontmatter: the whole file is body.
  return { bom, eol, head: '', yaml: '', hasFrontmatter: false, body: content };
}

export class FrontmatterError extends Error {
  constructor(
    message: string,
    readonly line: number | undefined,
  ) {
    super(message);
    this.name = 'FrontmatterError';
  }
}

const PARSE_OPTIONS = { schema: 'core', uniqueKeys: true, prettyErrors: true, version: '1.2' } as const;

export function parseYaml(yaml: string): Document {
  const doc = parseDocument(yaml.replace(/\r\n/g, '\n'), PARSE_OPTIONS);
  const [error] = doc.errors;
  if (error) throw new FrontmatterError(error.message.split('\n')[0] ?? error.message, error.linePos?.[0]?.line);
  return doc;
}

/** The frontmatter object of a split file ({} when none). */
export function frontmatterOf(split: SplitFile): Record<string, unknown> {
  if (!split.hasFrontmatter) return {};
  const doc = parseYaml(split.yaml);
  const value = doc.toJS({ maxAliasCount: 100 }) as unknown;
  if (value === null || value === undefined) return {};
  if (typeof value !== 'object' || Array.isArray(value)) {
    throw new FrontmatterError('frontmatter must be a YAML mapping (key: value lines)', 1);
  }
  return value as Record<string, unknown>;
}

/** The body as sent to the server and hashed: line endings normalized to LF. */
export function normalizeBody(body: string): string {
  return body.replace(/\r\n/g, '\n');
}

const WRITE_OPTIONS = { lineWidth: 0, compat: 'yaml-1.1', version: '1.2' } as const;

function toEol(text: string, eol: string): string {
  return eol === '\n' ? text : text.replace(/\r?\n/g, eol);
}

/** A date (`2024-01-01`) or an ISO 8601 date-time with a zone: a YAML 1.1 timestamp when plain. */
const PLAIN_DATE = /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2}))?$/;

/**
 * YAML text of a mapping, written for YAML 1.1 readers, except that values of date fields
 * (`dateKeys`) that are dates stay plain: `date: 2024-01-01`, as a person writes it and as site
 * generators that want a YAML timestamp (Astro's `z.date()`) read it. Read back with the 1.2 core
 * schema it is the same string, so the round trip is exact.
 */
function stringifyMapping(value: Record<string, unknown>, dateKeys: ReadonlySet<string>): string {
  const plain = new Map<string, string>();
  const nonce = Math.random().toString(36).slice(2);
  const shown: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) {
    if (dateKeys.has(key) && typeof item === 'string' && PLAIN_DATE.test(item)) {
      const token = `cmsdate${nonce}x${plain.size}`;
      plain.set(token, item);
      shown[key] = token;
    } else shown[key] = item;
  }
  let text = stringify(shown, WRITE_OPTIONS as never);
  for (const [token, date] of plain) text = text.replace(token, date);
  return text;
}

/** Canonical YAML text for frontmatter, in the given key order; date fields' dates stay plain. */
export function writeYaml(frontmatter: Record<string, unknown>, dateKeys: ReadonlySet<string> = new Set()): string {
  if (Object.keys(frontmatter).length === 0) return '';
  return stringifyMapping(frontmatter, dateKeys);
}

/** A new file from the canonical writer: `---`, YAML in key order, `---`, the body. LF, no BOM. */
export function renderNewFile(
  frontmatter: Record<string, unknown>,
  body: string,
  dateKeys: ReadonlySet<string> = new Set(),
): string {
  return `---\n${writeYaml(frontmatter, dateKeys)}---\n${body}`;
}

/**
 * The file text after the server's content is applied to an existing file: parts whose value did
 * not change keep their bytes; changed keys are set in place (quote style kept), new keys appended,
 * removed keys deleted, nothing reordered.
 */
export function patchFile(
  split: SplitFile,
  frontmatter: Record<string, unknown>,
  body: string,
  dateKeys: ReadonlySet<string> = new Set(),
): string {
  const bom = split.bom ? '\uFEFF' : '';
  const bodyText = normalizeBody(split.body) === body ? split.body : toEol(body, split.eol);
  let current: Record<string, unknown>;
  try {
    current = frontmatterOf(split);
  } catch {
    current = {};
  }
  if (split.hasFrontmatter && isDeepStrictEqual(current, frontmatter)) return `${bom}${split.head}${bodyText}`;
  if (!split.hasFrontmatter) {
    if (Object.keys(frontmatter).length === 0) return `${bom}${bodyText}`;
    return `${bom}${toEol(`---\n${writeYaml(frontmatter, dateKeys)}---\n`, split.eol)}${bodyText}`;
  }
  let doc: Document;
  try {
    doc = parseYaml(split.yaml);
  } catch {
    return `${bom}${toEol(`---\n${writeYaml(frontmatter, dateKeys)}---\n`, split.eol)}${bodyText}`;
  }
  const spliced = spliceChanges(split.yaml.replace(/\r\n/g, '\n'), doc, current, frontmatter, dateKeys);
  if (spliced !== undefined) return `${bom}${toEol(`---\n${spliced}---\n`, split.eol)}${bodyText}`;
  if (!isMap(doc.contents)) doc.contents = doc.createNode({}) as never;
  for (const key of Object.keys(current)) {
    if (!(key in frontmatter)) doc.delete(key);
  }
  for (const [key, value] of Object.entries(frontmatter)) {
    if (key in current && isDeepStrictEqual(current[key], value)) continue;
    const node = doc.get(key, true);
    if (isScalar(node) && (value === null || typeof value !== 'object')) {
      node.value = value;
    } else {
      const created = doc.createNode(value);
      // A flow list stays a flow list: `tags: [a, b]` must not turn into a block sequence.
      if (isCollection(node) && isCollection(created) && node.flow) created.flow = true;
      doc.set(key, created);
    }
  }
  const yaml = doc.toString(WRITE_OPTIONS as never);
  // Blank lines the user left before the closing fence stay.
  const trailing = /\n*$/.exec(split.yaml.replace(/\r\n/g, '\n'))?.[0] ?? '';
  const rendered = Object.keys(frontmatter).length === 0 && yaml.trim() === '{}' ? '' : yaml;
  const yamlText = rendered && trailing.length > 1 ? rendered.replace(/\n*$/, trailing) : rendered;
  return `${bom}${toEol(`---\n${yamlText}---\n`, split.eol)}${bodyText}`;
}

const QUOTED = new Set(['QUOTE_SINGLE', 'QUOTE_DOUBLE']);

/**
 * One value as it follows `key: ` on a single line, or undefined when it needs several lines. Written
 * for YAML 1.1 readers (`no` is quoted) unless `like` was quoted, whose style is kept; a date of a
 * date field stays plain.
 */
function renderInline(value: unknown, like: Node | null, dateField: boolean): string | undefined {
  const quoted = isScalar(like) && typeof value === 'string' && QUOTED.has(String(like.type));
  if (dateField && !quoted && typeof value === 'string' && PLAIN_DATE.test(value)) return value;
  const doc = new Document({ k: value }, WRITE_OPTIONS as never);
  const node = doc.get('k', true) as Node | undefined;
  if (quoted && isScalar(node) && isScalar(like)) node.type = like.type;
  if (isCollection(node) && isCollection(like) && like.flow) node.flow = true;
  const text = doc.toString(WRITE_OPTIONS as never);
  if (!text.startsWith('k: ') || text.indexOf('\n') !== text.length - 1) return undefined;
  return text.slice(3, -1);
}

/**
 * The YAML text with only the changed top-level values replaced in their source ranges and new keys
 * appended: every other byte (comments, spacing, flow-list style of untouched keys) stays. Undefined
 * when a change cannot be made that way (a removed key, a block value); the caller then re-renders.
 */
function spliceChanges(
  yaml: string,
  doc: Document,
  current: Record<string, unknown>,
  next: Record<string, unknown>,
  dateKeys: ReadonlySet<string>,
): string | undefined {
  if (!isMap(doc.contents)) return undefined;
  if (Object.keys(current).some((key) => !(key in next))) return undefined;
  const edits: Array<{ start: number; end: number; text: string }> = [];
  for (const pair of doc.contents.items) {
    if (!isPair(pair) || !isScalar(pair.key)) return undefined;
    const key = String(pair.key.value);
    if (!(key in next) || isDeepStrictEqual(current[key], next[key])) continue;
    const node = pair.value as Node | null;
    const range = node?.range;
    const blockish =
      !node || (isCollection(node) && !node.flow) || (isScalar(node) && String(node.type).startsWith('BLOCK'));
    if (!range || blockish) return undefined;
    const text = renderInline(next[key], node, dateKeys.has(key));
    if (text === undefined || text.startsWith('|') || text.startsWith('>')) return undefined;
    edits.push({ start: range[0], end: range[1], text });
  }
  let out = yaml;
  for (const edit of edits.sort((a, b) => b.start - a.start))
    out = out.slice(0, edit.start) + edit.text + out.slice(edit.end);
  const added = Object.keys(next).filter((key) => !(key in current));
  if (added.length > 0) {
    const addition = stringifyMapping(Object.fromEntries(added.map((key) => [key, next[key]])), dateKeys);
    const content = out.replace(/\n*$/, '');
    const trailing = out.slice(content.length);
    out = `${content}${content ? '\n' : ''}${addition}${trailing.length > 1 ? trailing.slice(1) : ''}`;
  }
  return out;
}
