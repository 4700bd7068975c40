/**
 * The body toolbar's commands as plain text transforms (STUDIO-NOTES 3): each takes the text and the
 * selection and gives back the edits and the new selection, touching nothing else. Markers follow the
 * document's own style (`__` or `**`, `_` or `*`, `-`, `*` or `+`). No editor types here, so the
 * toolbar (main chunk) and the editor's keymap (CodeMirror's chunk) share them.
 */

/** What a command works on. */
export interface TextState {
  doc: string;
  from: number;
  to: number;
}

/** One replacement of `doc.slice(from, to)`. */
export interface TextChange {
  from: number;
  to: number;
  insert: string;
}

/** The edits (positions in the original text) and the selection after them. */
export interface TextEdit {
  changes: TextChange[];
  selection: { anchor: number; head: number };
}

/** The formatting commands, by the label of their toolbar button. */
export type FormatCommand = 'bold' | 'italic' | 'link' | 'heading' | 'bulletedList';

function count(doc: string, pattern: RegExp): number {
  return doc.match(pattern)?.length ?? 0;
}

/** `__` when the document already writes strong emphasis that way (and never with `**`), else `**`. */
export function strongMarker(doc: string): '**' | '__' {
  return count(doc, /(^|[^\w_])__[^\s_]/g) > 0 && count(doc, /\*\*[^\s*]/g) === 0 ? '__' : '**';
}

/** `*` when the document writes emphasis with single stars (and never with underscores), else `_`. */
export function emphasisMarker(doc: string): '_' | '*' {
  const stars = count(doc, /(^|[^*\w])\*[^\s*][^*\n]*\*(?!\*)/g);
  const underscores = count(doc, /(^|[^_\w])_[^\s_][^_\n]*_(?![_\w])/g);
  return stars > 0 && underscores === 0 ? '*' : '_';
}

/** The bullet the document's lists use first (`-`, `*` or `+`), `-` when it has none. */
export function bulletMarker(doc: string): '-' | '*' | '+' {
  const found = /^[ \t]*([-*+])[ \t]+\S/m.exec(doc.replace(/^[ \t]*([-*_])([ \t]*\1){2,}[ \t]*$/gm, ''));
  return (found?.[1] as '-' | '*' | '+' | undefined) ?? '-';
}

/** Whether `[from, to)` sits between exactly `marker` on each side (or inside `***`, strong and emphasis at once). */
function wrappedBy(doc: string, from: number, to: number, marker: string): boolean {
  // The run of marker characters on each side: `**` around the selection is strong emphasis, not
  // emphasis inside emphasis, so italic wraps it again (`***`) rather than taking one star away.
  const char = marker[0] as string;
  let left = 0;
  while (doc[from - left - 1] === char) left += 1;
  let right = 0;
  while (doc[to + right] === char) right += 1;
  return left === right && (left === marker.length || left === 3);
}

/** Wraps `[from, to)` in `marker` (placeholder text when empty), or unwraps it when already wrapped. */
function wrapRange(doc: string, from: number, to: number, marker: string, placeholder: string): TextEdit {
  const n = marker.length;
  const selected = doc.slice(from, to);
  if (wrappedBy(doc, from, to, marker)) {
    return {
      changes: [
        { from: from - n, to: from, insert: '' },
        { from: to, to: to + n, insert: '' },
      ],
      selection: { anchor: from - n, head: to - n },
    };
  }
  if (selected.length > 2 * n && selected.startsWith(marker) && selected.endsWith(marker)) {
    return {
      changes: [{ from, to, insert: selected.slice(n, -n) }],
      selection: { anchor: from, head: to - 2 * n },
    };
  }
  const text = selected === '' ? placeholder : selected;
  return {
    changes: [{ from, to, insert: `${marker}${text}${marker}` }],
    selection: { anchor: from + n, head: from + n + text.length },
  };
}

/** A line's block markup: indentation, quote markers, a list marker (with its task box) or a heading's `#`s. */
const BLOCK_MARKUP = /^[ \t]*(?:>[ \t]?)*[ \t]*(?:(?:[-*+]|\d{1,9}[.)])[ \t]+(?:\[[ xX]\][ \t]+)?|#{1,6}[ \t]+)?/;

/**
 * The part of the selection on the line at `start` that emphasis can wrap: past the line's block
 * markup (Bold on a whole list line wraps the item's text, not its `-`) and without blanks at
 * either end (`** word**` is not emphasis). A cursor in the markup moves to its end.
 */
function inlinePart(doc: string, start: number, from: number, to: number): { from: number; to: number } {
  const text = lineAt(doc, start);
  const markupEnd = start + (BLOCK_MARKUP.exec(text)?.[0].length ?? 0);
  const lineEnd = start + text.length;
  let a = Math.min(Math.max(from, start), lineEnd);
  let b = Math.min(Math.max(to, a), lineEnd);
  if (a < markupEnd) a = Math.min(markupEnd, lineEnd);
  if (b < a) b = a;
  if (from === to) return { from: a, to: a };
  while (a < b && /\s/.test(doc[a] as string)) a += 1;
  while (b > a && /\s/.test(doc[b - 1] as string)) b -= 1;
  return { from: a, to: b };
}

/**
 * Emphasis on the selection, per line: a selection on one line wraps (or unwraps) its text; one over
 * several lines wraps each line's text on its own (emphasis does not run across blocks), or unwraps
 * them all when every one is wrapped already.
 */
function wrap(state: TextState, marker: string, placeholder: string): TextEdit {
  const { doc, from, to } = state;
  const parts = lineStarts(doc, from, to)
    .map((start) => inlinePart(doc, start, from, to))
    .filter((part, _index, all) => all.length === 1 || part.to > part.from);
  if (parts.length <= 1) {
    const part = parts[0] ?? { from: to, to };
    return wrapRange(doc, part.from, part.to, marker, placeholder);
  }
  const n = marker.length;
  /** The markers of a part already wrapped: around it, or its own first and last characters. */
  const markers = (part: { from: number; to: number }): [number, number] | null => {
    if (wrappedBy(doc, part.from, part.to, marker)) return [part.from - n, part.to];
    const text = doc.slice(part.from, part.to);
    return text.length > 2 * n && text.startsWith(marker) && text.endsWith(marker) ? [part.from, part.to - n] : null;
  };
  const unwrap = parts.every((part) => markers(part) !== null);
  const changes: TextChange[] = [];
  for (const part of parts) {
    const found = markers(part);
    if (unwrap && found) {
      changes.push({ from: found[0], to: found[0] + n, insert: '' }, { from: found[1], to: found[1] + n, insert: '' });
    } else if (!found) {
      changes.push({ from: part.from, to: part.from, insert: marker }, { from: part.to, to: part.to, insert: marker });
    }
  }
  const first = parts[0] as { from: number };
  const last = parts.at(-1) as { to: number };
  return {
    changes,
    selection: { anchor: mapPos(first.from, changes, 1), head: mapPos(last.to, changes, -1) },
  };
}

/** `[selection](url)`, with the address selected to type over (or the text, when the selection is an address). */
function link(state: TextState): TextEdit {
  const { doc, from, to } = state;
  const selected = doc.slice(from, to);
  if (/^(https?:\/\/|mailto:|\/)\S*$/.test(selected)) {
    const insert = `[link text](${selected})`;
    return { changes: [{ from, to, insert }], selection: { anchor: from + 1, head: from + 10 } };
  }
  const text = selected === '' ? 'link text' : selected;
  const insert = `[${text}](https://)`;
  const urlStart = from + text.length + 3;
  return { changes: [{ from, to, insert }], selection: { anchor: urlStart, head: urlStart + 8 } };
}

/** Start offsets of the lines the selection touches (a selection ending at a line's start leaves that line out). */
function lineStarts(doc: string, from: number, to: number): number[] {
  const last = to > from && doc[to - 1] === '\n' ? to - 1 : to;
  const starts: number[] = [];
  let start = from === 0 ? 0 : doc.lastIndexOf('\n', from - 1) + 1;
  for (;;) {
    starts.push(start);
    const next = doc.indexOf('\n', start);
    if (next === -1 || next >= last) break;
    start = next + 1;
  }
  return starts;
}

function lineAt(doc: string, start: number): string {
  const end = doc.indexOf('\n', start);
  return doc.slice(start, end === -1 ? doc.length : end).replace(/\r$/, '');
}

/** Moves a position by the edits before it (all prefix edits, at line starts). */
function mapPos(pos: number, changes: readonly TextChange[], assoc: 1 | -1): number {
  let mapped = pos;
  for (const change of changes) {
    if (change.from < pos || (change.from === pos && assoc === 1)) {
      mapped += change.insert.length - (Math.min(change.to, pos) - change.from);
    }
  }
  return mapped;
}

/** Puts `prefix` before every touched line, or takes the existing prefix away when all have one. */
function prefixLines(
  state: TextState,
  existing: RegExp,
  prefix: string,
  same: (found: string) => boolean = () => true,
): TextEdit {
  const { doc, from, to } = state;
  const starts = lineStarts(doc, from, to);
  const lines = starts.map((start) => ({ start, text: lineAt(doc, start) }));
  const nonEmpty = lines.filter((line) => line.text.trim() !== '');
  const allHave =
    nonEmpty.length > 0 &&
    nonEmpty.every((line) => {
      const found = existing.exec(line.text);
      return found !== null && same(found[0]);
    });
  const changes: TextChange[] = [];
  for (const line of allHave ? nonEmpty : lines.length === 1 ? lines : nonEmpty) {
    const found = existing.exec(line.text);
    if (allHave && found) changes.push({ from: line.start, to: line.start + found[0].length, insert: '' });
    else if (!allHave) {
      // A line with another prefix of the same family (a level-3 heading) gets this one instead.
      const replaced = found ? found[0].length : 0;
      changes.push({ from: line.start, to: line.start + replaced, insert: prefix });
    }
  }
  return {
    changes,
    selection: { anchor: mapPos(from, changes, 1), head: mapPos(to, changes, 1) },
  };
}

/** Runs a formatting command on the text and selection. */
export function formatText(command: FormatCommand, state: TextState): TextEdit {
  switch (command) {
    case 'bold':
      return wrap(state, strongMarker(state.doc), 'bold text');
    case 'italic':
      return wrap(state, emphasisMarker(state.doc), 'italic text');
    case 'link':
      return link(state);
    case 'heading':
      return prefixLines(state, /^#{1,6}[ \t]+/, '## ', (found) => found.trimEnd() === '##');
    case 'bulletedList':
      return prefixLines(state, /^[ \t]*[-*+][ \t]+/, `${bulletMarker(state.doc)} `);
  }
}

/** Alt text proposed for an uploaded image: its file name in words (`team-photo_2.png` -> `team photo 2`). */
export function altTextFor(filename: string): string {
  const words = filename
    .replace(/\.[^.]+$/, '')
    .replace(/[-_.]+/g, ' ')
    .replace(/[[\]\\]/g, '')
    .trim();
  return words === '' || /^image$/i.test(words) ? 'Describe the image' : words;
}

/** Markdown of an image with `alt` at `url` (parentheses and spaces in the address escaped). */
export function imageMarkdown(alt: string, url: string): string {
  return `!${linkMarkdown(alt, url)}`;
}

/** Markdown link text and address: brackets dropped from the text, parentheses and spaces escaped in the address. */
function linkMarkdown(text: string, url: string): string {
  // encodeURIComponent leaves parentheses alone, and a `)` would end the Markdown address early.
  const address = url.replace(/[()\s]/g, (char) =>
    char === '(' ? '%28' : char === ')' ? '%29' : encodeURIComponent(char),
  );
  return `[${text.replace(/[[\]\\]/g, '')}](${address})`;
}

/**
 * Markdown for a library asset inserted into a body: an image for images, with the asset's own alt
 * text (written in the media details) or else its file name, and a link to any other file.
 */
export function assetMarkdown(asset: { filename: string; url: string; mimeType: string; alt?: string | null }): string {
  if (asset.mimeType.startsWith('image/')) {
    return imageMarkdown(asset.alt?.trim() || asset.filename.replace(/\.[^.]+$/, ''), asset.url);
  }
  return linkMarkdown(asset.filename, asset.url);
}

/**
 * The address a body gets for a media file: as the server hands it out when the server has a public
 * address (`CMS_PUBLIC_URL`, which sites and readers reach), else the path alone (`/media/...`): the
 * server's listen address (`http://127.0.0.1:4000`) means nothing to a site or a reader.
 */
export function bodyAddress(url: string, publicUrl: string | null | undefined): string {
  if (publicUrl) return url;
  try {
    const parsed = new URL(url);
    return `${parsed.pathname}${parsed.search}`;
  } catch {
    return url;
  }
}
