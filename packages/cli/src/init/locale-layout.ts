/**
 * How a tree says which language a file is in, as `cms init` reads it: locale folders (`docs/en/...`
 * beside `docs/de/...`), one language for the whole tree (`files/de/...` and nothing else), or a locale
 * suffix (`about.fr.md` beside `about.en.md`). A name is a locale only when CLDR knows it
 * (locale-codes.ts) AND the structure says so: the folder's siblings are locale folders too and they
 * hold the same relative paths. `min/`, `pi/` or `br/` beside `abs/` and `acos/` are pages, whatever
 * CLDR says of their names. Every reading says why (`evidence`) and whether it is certain; an
 * uncertain one is asked about, and `--yes` leaves it out (docs/cli.md "How init reads a tree").
 */
import { isLocaleCode, localeName } from './locale-codes.js';

/** One way the tree may carry locales, with what speaks for and against it. */
export interface LocaleFinding {
  /** `folders`: `<base>/<locale>/...`; `single`: the whole tree under `<base>/<locale>/`; `suffix`: `name.<locale>.md`. */
  kind: 'folders' | 'single' | 'suffix';
  /** The folder holding the locale folders ('' for the top); '' for suffixes. */
  base: string;
  /** As spelled on disk. */
  locales: string[];
  /** Files that carry one of these locales. */
  files: number;
  certain: boolean;
  /** What was seen, one sentence each. */
  evidence: string[];
  /** Why it is not certain (empty when it is). */
  doubts: string[];
  /**
   * Suffix readings: files without a suffix in the folders of suffixed ones (`about.md` beside
   * `about.fr.md`), whose language the tree does not say.
   */
  unsuffixed?: number;
}

export interface LocaleDetection {
  findings: LocaleFinding[];
  /** Folders named like a language whose siblings are not locale folders (`math/min`), by name. */
  lookalikes: Map<string, string[]>;
}

/** The locales accepted for the tree: the folder bases with their locales, and the suffix locales. */
export interface AcceptedLocales {
  folders: { base: string; locales: string[] }[];
  suffixes: string[];
}

export const NO_LOCALES: AcceptedLocales = { folders: [], suffixes: [] };

const INDEX_PAGE = /^(index|_index|readme)\.mdx?$/i;
const SUFFIXED = /^(.+)\.([A-Za-z]{2,3}(?:-[A-Za-z0-9]{2,4})?)\.(mdx?)$/;
const EXAMPLES = 3;

export function dirOf(file: string): string {
  const at = file.lastIndexOf('/');
  return at < 0 ? '' : file.slice(0, at);
}

const under = (file: string, folder: string) => folder === '' || file.startsWith(`${folder}/`);
const join = (base: string, name: string) => (base ? `${base}/${name}` : name);
const sample = (items: readonly string[]) =>
  items.slice(0, EXAMPLES).join(', ') + (items.length > EXAMPLES ? `, ... (${items.length})` : '');
const named = (codes: readonly string[]) => codes.map((c) => `${c} (${localeName(c)})`).join(', ');

/** The folders under each folder that hold markdown, and the markdown files directly in each. */
function folderTree(files: readonly string[]) {
  const children = new Map<string, Set<string>>();
  const direct = new Map<string, number>();
  for (const file of files) {
    const parts = file.split('/');
    direct.set(dirOf(file), (direct.get(dirOf(file)) ?? 0) + 1);
    for (let i = 0; i < parts.length - 1; i++) {
      const parent = parts.slice(0, i).join('/');
      const set = children.get(parent) ?? new Set<string>();
      set.add(parts[i] as string);
      children.set(parent, set);
    }
  }
  return { children, direct };
}

/** Sibling locale folders: certain when each shares a relative path with another, beyond a lone index page. */
function foldersFinding(files: readonly string[], base: string, codes: string[], directFiles: number): LocaleFinding {
  const holders = new Map<string, number>();
  const held = new Map<string, Set<string>>(codes.map((code) => [code, new Set<string>()]));
  let count = 0;
  for (const code of codes) {
    const prefix = `${join(base, code)}/`;
    for (const file of files) {
      if (!file.startsWith(prefix)) continue;
      count += 1;
      const rest = file.slice(prefix.length);
      held.get(code)?.add(rest);
      holders.set(rest, (holders.get(rest) ?? 0) + 1);
    }
  }
  const shared = [...holders].filter(([, n]) => n >= 2).map(([rest]) => rest);
  const sharedPages = shared.filter((rest) => !INDEX_PAGE.test(rest));
  const alone = codes.filter((code) => !shared.some((rest) => held.get(code)?.has(rest)));
  const doubts: string[] = [];
  if (sharedPages.length === 0)
    doubts.push(
      shared.length === 0
        ? 'they hold no relative path in common, so none is a translation of another'
        : `the only path they share is ${sample(shared)}, as page folders do`,
    );
  else if (alone.length > 0) doubts.push(`${sample(alone)} share(s) no relative path with the others`);
  if (directFiles > 0) doubts.push(`${base || 'the top'} also holds ${directFiles} page(s) of its own beside them`);
  return {
    kind: 'folders',
    base,
    locales: codes,
    files: count,
    certain: doubts.length === 0,
    evidence: [
      `${base || 'the top folder'}/ holds ${codes.length} folders, all named with language codes: ${named(codes)}`,
      `${shared.length} relative path(s) appear in two or more of them (${sample(shared) || 'none'}); ${count} file(s) in all`,
    ],
    doubts,
  };
}

/** One locale folder alone: the tree's language when every file in a folder is under it. */
function singleFinding(files: readonly string[], base: string, code: string): LocaleFinding {
  const folder = join(base, code);
  const inFolders = files.filter((f) => f.includes('/'));
  const inside = inFolders.filter((f) => under(f, folder)).length;
  const doubts: string[] = [];
  if (inside < inFolders.length) doubts.push(`only ${inside} of the ${inFolders.length} files in folders are under it`);
  if (inside < 2) doubts.push('it holds a single page, as a page folder does');
  return {
    kind: 'single',
    base,
    locales: [code],
    files: inside,
    certain: doubts.length === 0,
    evidence: [`${folder}/ is named for ${localeName(code)} and has no sibling folder; ${inside} file(s) under it`],
    doubts,
  };
}

/** `about.fr.md` beside `about.en.md` (or `about.md`): certain when most suffixed files have such a partner. */
function suffixFinding(files: readonly string[]): LocaleFinding | undefined {
  const groups = new Map<string, { plain: number; codes: string[] }>();
  for (const file of files) {
    const name = file.slice(file.lastIndexOf('/') + 1);
    const match = SUFFIXED.exec(name);
    const code = match?.[2];
    const stem = match && code && isLocaleCode(code) ? match[1] : undefined;
    const key = join(dirOf(file), stem ?? name.replace(/\.mdx?$/, ''));
    const group = groups.get(key) ?? { plain: 0, codes: [] };
    if (stem && code) group.codes.push(code);
    else group.plain += 1;
    groups.set(key, group);
  }
  const byCode = new Map<string, { files: number; paired: number }>();
  const suffixedDirs = new Set([...groups].filter(([, g]) => g.codes.length > 0).map(([key]) => dirOf(key)));
  const unsuffixed = [...groups]
    .filter(([key, g]) => g.plain > 0 && suffixedDirs.has(dirOf(key)))
    .reduce((n, [, g]) => n + g.plain, 0);
  for (const group of groups.values()) {
    if (group.codes.length === 0) continue;
    const paired = group.codes.length + group.plain >= 2;
    for (const code of group.codes) {
      const seen = byCode.get(code) ?? { files: 0, paired: 0 };
      seen.files += 1;
      if (paired) seen.paired += 1;
      byCode.set(code, seen);
    }
  }
  if (byCode.size === 0) return undefined;
  const codes = [...byCode.keys()].sort();
  const total = [...byCode.values()].reduce((n, s) => n + s.files, 0);
  const paired = [...byCode.values()].reduce((n, s) => n + s.paired, 0);
  const lonely = codes.filter((c) => (byCode.get(c)?.paired ?? 0) * 2 < (byCode.get(c)?.files ?? 0));
  const doubts: string[] = [];
  if (lonely.length > 0)
    doubts.push(`most files suffixed ${sample(lonely.map((c) => `.${c}`))} have no other language beside them`);
  return {
    kind: 'suffix',
    base: '',
    locales: codes,
    files: total,
    certain: doubts.length === 0,
    evidence: [
      `${total} file(s) end in a language code (${named(codes)}); ${paired} of them have a translation beside them under the same name; ${unsuffixed} file(s) beside them have no suffix`,
    ],
    doubts,
    unsuffixed,
  };
}

/** Every locale reading of a tree's markdown files (relative names, forward slashes). */
export function detectLocales(files: readonly string[]): LocaleDetection {
  const { children, direct } = folderTree(files);
  const findings: LocaleFinding[] = [];
  const lookalikes = new Map<string, string[]>();
  for (const [base, names] of [...children].sort(([a], [b]) => a.length - b.length)) {
    const codes = [...names].filter(isLocaleCode).sort();
    if (codes.length === 0) continue;
    const lookalike = () => {
      for (const code of codes) lookalikes.set(code, [...(lookalikes.get(code) ?? []), join(base, code)]);
    };
    if (codes.length < names.size) {
      lookalike();
      continue;
    }
    // A reading inside another's locale folder is that locale's content.
    if (findings.some((f) => f.kind !== 'suffix' && f.locales.some((l) => under(base, join(f.base, l))))) continue;
    if (codes.length >= 2) {
      findings.push(foldersFinding(files, base, codes, direct.get(base) ?? 0));
      continue;
    }
    const single = singleFinding(files, base, codes[0] as string);
    // A lone folder holding one page is a page folder, not worth a question.
    if (single.files < 2) lookalike();
    else findings.push(single);
  }
  const suffix = suffixFinding(files);
  if (suffix) findings.push(suffix);
  return { findings, lookalikes };
}

/** The accepted reading: the given findings' folders and suffixes. */
export function acceptFindings(findings: readonly LocaleFinding[]): AcceptedLocales {
  return {
    folders: findings.filter((f) => f.kind !== 'suffix').map((f) => ({ base: f.base, locales: f.locales })),
    suffixes: findings.filter((f) => f.kind === 'suffix').flatMap((f) => f.locales),
  };
}

/** The bases of the certain locale folder readings (`docs` for `docs/en/a.md` beside `docs/de/a.md`). */
export function findLocaleFolders(files: readonly string[]): string[] {
  return detectLocales(files)
    .findings.filter((f) => f.certain && f.kind === 'folders')
    .map((f) => f.base);
}

export interface LogicalFile {
  /** The name on disk, relative. */
  file: string;
  /** The name without its locale: the locale folder or suffix taken out. */
  logical: string;
  locale: string | undefined;
  /** The locale folder base the file is under, when its locale comes from a folder. */
  base: string | undefined;
}

/** A file's logical name and locale, given the accepted locale readings of the tree. */
export function logicalFile(file: string, accepted: AcceptedLocales): LogicalFile {
  for (const { base, locales } of accepted.folders) {
    const prefix = base ? `${base}/` : '';
    if (!file.startsWith(prefix)) continue;
    const rest = file.slice(prefix.length);
    const slash = rest.indexOf('/');
    const segment = slash < 0 ? '' : rest.slice(0, slash);
    if (segment && locales.includes(segment)) {
      return { file, logical: prefix + rest.slice(slash + 1), locale: segment, base };
    }
  }
  const name = file.slice(file.lastIndexOf('/') + 1);
  const match = SUFFIXED.exec(name);
  if (match && accepted.suffixes.includes(match[2] as string)) {
    return {
      file,
      logical: `${file.slice(0, file.length - name.length)}${match[1]}.${match[3]}`,
      locale: match[2],
      base: undefined,
    };
  }
  return { file, logical: file, locale: undefined, base: undefined };
}
