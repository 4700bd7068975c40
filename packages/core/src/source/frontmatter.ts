/**
 * Our own frontmatter split (no gray-matter): one leading BOM stripped, CRLF accepted and kept,
 * the body kept as opaque text. YAML goes through `yaml`'s Document API (core schema, unique keys),
 * so `date: 2024-01-01` stays a string and an unchanged value keeps the user's bytes.
 */

import { type Document, parseDocument } from 'yaml';
import { deepEqual as isDeepStrictEqual } from './deep-equal.js';
import { patchYamlText } from './yaml-patch.js';
import { type FieldShapes, renderMapping, rootShape } from './yaml-render.js';
import { rerenderYaml } from './yaml-rerender.js';

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

function toEol(text: string, eol: string): string {
  return eol === '\n' ? text : text.replace(/\r?\n/g, eol);
}

/**
 * Canonical YAML text for frontmatter, in the given key order, for YAML 1.1 readers; the dates of
 * `date` fields (`fields`, at any depth) are written plain.
 */
export function writeYaml(frontmatter: Record<string, unknown>, fields?: FieldShapes): string {
  return renderMapping(frontmatter, rootShape(fields));
}

/** A new file from the canonical writer: `---`, YAML in key order, `---`, the body. LF, no BOM. */
export function renderNewFile(frontmatter: Record<string, unknown>, body: string, fields?: FieldShapes): string {
  return `---\n${writeYaml(frontmatter, fields)}---\n${body}`;
}

/** Whether YAML text reads back as exactly this frontmatter. */
function readsAs(yaml: string, frontmatter: Record<string, unknown>): boolean {
  try {
    return isDeepStrictEqual(frontmatterOf({ ...splitFile(`---\n${yaml}---\n`) }), frontmatter);
  } catch {
    return false;
  }
}

/**
 * The file text after the server's content is applied to an existing file. Unchanged frontmatter
 * keeps its bytes; otherwise only what changed is edited, at any depth (yaml-patch.ts): quote
 * styles, comments, key order, flow and block style and plain dates stay. Should that not be
 * possible, the frontmatter is re-rendered (comments and order kept), and as a last resort written
 * by the canonical writer; each result is checked to read back as `frontmatter`.
 */
export function patchFile(
  split: SplitFile,
  frontmatter: Record<string, unknown>,
  body: string,
  fields?: FieldShapes,
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
  const head = (yaml: string) => `${bom}${toEol(`---\n${yaml}---\n`, split.eol)}${bodyText}`;
  const empty = Object.keys(frontmatter).length === 0;
  if (!split.hasFrontmatter) return empty ? `${bom}${bodyText}` : head(writeYaml(frontmatter, fields));
  if (empty) return head('');
  const yaml = split.yaml.replace(/\r\n/g, '\n');
  let doc: Document | undefined;
  try {
    doc = parseYaml(split.yaml);
  } catch {
    doc = undefined;
  }
  if (doc) {
    const shape = rootShape(fields);
    const patched = patchYamlText(yaml, doc, current, frontmatter, shape);
    if (patched !== undefined && readsAs(patched, frontmatter)) return head(patched);
    let rerendered: string | undefined;
    try {
      rerendered = rerenderYaml(yaml, parseYaml(split.yaml), current, frontmatter, shape);
    } catch {
      // An alias whose anchor was replaced, and the like: the canonical writer below is always right.
      rerendered = undefined;
    }
    if (rerendered !== undefined && readsAs(rerendered, frontmatter)) return head(rerendered);
  }
  return head(writeYaml(frontmatter, fields));
}
