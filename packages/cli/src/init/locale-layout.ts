/**
 * How a tree says which language a file is in, as `cms init` finds it: a locale suffix
 * (`post.de.md`) or locale folders (`docs/en/...` beside `docs/de/...`, or `en/...` beside `de/...` at
 * the top). A file's logical name is its name without the locale: files with one logical name are the
 * translations of one document.
 */

const LOCALE_SHAPE = /^[a-z]{2,3}(-[a-z0-9]{2,8})?$/i;
// Made on first use: loading the language names costs every command (not only init) tens of ms.
let languageNames: Intl.DisplayNames | undefined;

/** A language tag a person would use for a locale folder or suffix (`en`, `pt-br`, `zh-cn`); not `js`, `api`. */
export function isLocaleCode(code: string): boolean {
  if (!LOCALE_SHAPE.test(code)) return false;
  try {
    languageNames ??= new Intl.DisplayNames(['en'], { type: 'language', fallback: 'code' });
    const name = languageNames.of(code);
    return name !== undefined && name.toLowerCase() !== code.toLowerCase();
  } catch {
    return false;
  }
}

export function dirOf(file: string): string {
  const at = file.lastIndexOf('/');
  return at < 0 ? '' : file.slice(0, at);
}

/**
 * The folders that hold one folder per locale: a folder with at least two sub-folders named like
 * locales. Only the outermost count (a locale folder inside a locale folder is content).
 */
export function findLocaleFolders(files: readonly string[]): string[] {
  const children = new Map<string, Set<string>>();
  for (const file of files) {
    const parts = file.split('/').slice(0, -1);
    for (let i = 0; i < parts.length; i++) {
      const parent = parts.slice(0, i).join('/');
      const set = children.get(parent) ?? new Set<string>();
      set.add(parts[i] as string);
      children.set(parent, set);
    }
  }
  const bases = [...children.entries()]
    .filter(([, names]) => [...names].filter(isLocaleCode).length >= 2)
    .map(([base]) => base)
    .sort((a, b) => a.length - b.length);
  const outer: string[] = [];
  for (const base of bases) {
    if (!outer.some((o) => o === '' || base === o || base.startsWith(`${o}/`))) outer.push(base);
  }
  return outer;
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

/** A file's logical name and locale, given the locale folders of the tree. */
export function logicalFile(file: string, bases: readonly string[]): LogicalFile {
  for (const base of bases) {
    const prefix = base ? `${base}/` : '';
    if (!file.startsWith(prefix)) continue;
    const rest = file.slice(prefix.length);
    const slash = rest.indexOf('/');
    const segment = slash < 0 ? '' : rest.slice(0, slash);
    if (segment && isLocaleCode(segment)) {
      return { file, logical: prefix + rest.slice(slash + 1), locale: segment, base };
    }
  }
  const name = file.slice(file.lastIndexOf('/') + 1);
  const match = /^(.+)\.([^./]+)\.(mdx?)$/.exec(name);
  if (match && isLocaleCode(match[2] as string)) {
    return {
      file,
      logical: `${file.slice(0, file.length - name.length)}${match[1]}.${match[3]}`,
      locale: match[2],
      base: undefined,
    };
  }
  return { file, logical: file, locale: undefined, base: undefined };
}
