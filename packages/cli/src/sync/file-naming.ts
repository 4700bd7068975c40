/**
 * File names of documents. A document of a type lives at `<type directory>/<path>[.<locale>].md|mdx`:
 * localized types carry the locale as a suffix, non-localized ones never do. Under a locale folder
 * (config `localeFolders`), the locale is a folder instead: `<base>/<locale>/<rest of the directory>/<path>.md`
 * (`docs/de/guide/intro.md` is the `de` translation of the `doc` at `guide/intro`). Paths are compared in
 * Unicode NFC (macOS yields NFD).
 */
import type { SchemaType } from '@cms/core';

export const DEFAULT_LOCALE = '__cms_default__';
const LOCALE = /^[a-zA-Z]{2,3}(-[a-zA-Z0-9]{2,8})*$/;

/** A type as it is on disk: its directory, and where its locale folders are (when it has them). */
export interface FileType extends SchemaType {
  /** The folder holding one folder per locale (`docs` for `docs/en/...`, '' for the content root). */
  localeFolder?: { base: string; locales: readonly string[] } | undefined;
  /**
   * A localized type's suffix locales, when the config lists its locales: `name.<suffix>.md` is a
   * locale only for these (`jquery.min.md` is the path `jquery.min`, not Minangkabau).
   */
  suffixLocales?: readonly string[] | undefined;
  /**
   * The locale whose files carry no locale in their name (config `markDefaultLocale: false`): no suffix
   * (`about.md`, not `about.en.md`) and no locale folder (`docs/intro.md` beside `docs/fr/intro.md`).
   */
  unmarkedLocale?: string | undefined;
}

export interface DocumentKey {
  type: string;
  path: string;
  locale: string;
  format: 'md' | 'mdx';
}

const trim = (directory: string) => directory.replace(/^\.?\/+|\/+$/g, '');
const join = (...parts: string[]) => parts.filter((p) => p !== '').join('/');

/** The relative file name (forward slashes, NFC) of a document. */
export function fileNameOf(type: FileType, doc: { path: string; locale: string; format: string }): string {
  const directory = trim(type.directory);
  const path = doc.path.replace(/^\/+/, '');
  const extension = doc.format === 'mdx' ? 'mdx' : 'md';
  const folder = type.localeFolder;
  const unmarked = doc.locale === DEFAULT_LOCALE || doc.locale.toLowerCase() === type.unmarkedLocale?.toLowerCase();
  if (folder && type.localized && !unmarked) {
    const base = trim(folder.base);
    const rest = base === '' ? directory : directory.slice(base.length + 1);
    // The folder as the tree spells it (`pt-br`), whatever case the server answers (`pt-BR`).
    const folderName = folder.locales.find((l) => l.toLowerCase() === doc.locale.toLowerCase()) ?? doc.locale;
    return join(base, folderName, rest, `${path}.${extension}`).normalize('NFC');
  }
  const locale = type.localized && !unmarked ? `.${suffixOf(type, doc.locale)}` : '';
  return join(directory, `${path}${locale}.${extension}`).normalize('NFC');
}

/** A locale as the config spells it (`pt-br`), whatever case the server answers (`pt-BR`). */
function suffixOf(type: FileType, locale: string): string {
  return type.suffixLocales?.find((l) => l.toLowerCase() === locale.toLowerCase()) ?? locale;
}

/** How the config names locales in files: the listed locales, and whether the default's files carry a suffix. */
export interface LocaleNaming {
  /** The config lists its locales: only these are suffixes. */
  declared?: boolean;
  /** False: the default locale's files carry no locale suffix or folder. */
  markDefaultLocale?: boolean;
}

/** The types with their locale folders: a localized type under a base of `bases` (the deepest) has them. */
export function withLocaleFolders(
  types: readonly SchemaType[],
  bases: readonly string[],
  locales: readonly string[],
  naming: LocaleNaming = {},
): FileType[] {
  const suffixes = (type: SchemaType): Partial<FileType> =>
    type.localized
      ? {
          ...(naming.declared ? { suffixLocales: locales } : {}),
          ...(naming.markDefaultLocale === false && locales[0] ? { unmarkedLocale: locales[0] } : {}),
        }
      : {};
  return withFolders(types, bases, locales).map((type) => ({ ...type, ...suffixes(type) }));
}

function withFolders(types: readonly SchemaType[], bases: readonly string[], locales: readonly string[]): FileType[] {
  return types.map((type) => {
    const dir = trim(type.directory);
    const base = type.localized
      ? bases
          .map(trim)
          .filter((b) => b === '' || dir === b || dir.startsWith(`${b}/`))
          .sort((a, b) => b.length - a.length)[0]
      : undefined;
    return base === undefined ? { ...type } : { ...type, localeFolder: { base, locales } };
  });
}

/** `docs/de/guide/a.md` as `{ logical: 'docs/guide/a.md', locale: 'de' }` for a type with that locale folder. */
function withoutLocaleFolder(name: string, type: FileType): { logical: string; locale: string } | undefined {
  const folder = type.localeFolder;
  if (!folder) return undefined;
  const base = trim(folder.base);
  const prefix = base ? `${base}/` : '';
  if (!name.startsWith(prefix)) return undefined;
  const rest = name.slice(prefix.length);
  const slash = rest.indexOf('/');
  if (slash < 0) return undefined;
  const locale = rest.slice(0, slash);
  const match = folder.locales.find((l) => l.toLowerCase() === locale.toLowerCase());
  if (!match) return undefined;
  return { logical: prefix + rest.slice(slash + 1), locale: match };
}

/**
 * The document a relative file name stands for, or undefined when it is not under a type directory
 * or not markdown. The longest matching directory wins.
 */
export function parseFileName(
  relative: string,
  types: readonly FileType[],
  defaultLocale?: string,
): DocumentKey | undefined {
  const name = relative.normalize('NFC').replace(/\\/g, '/');
  const extension = name.endsWith('.mdx') ? 'mdx' : name.endsWith('.md') ? 'md' : undefined;
  if (!extension) return undefined;
  const sorted = [...types].sort((a, b) => trim(b.directory).length - trim(a.directory).length);
  for (const type of sorted) {
    const folder = type.localized ? withoutLocaleFolder(name, type) : undefined;
    const logical = folder?.logical ?? name;
    const directory = trim(type.directory);
    const prefix = directory ? `${directory}/` : '';
    if (!logical.startsWith(prefix)) continue;
    let stem = logical.slice(prefix.length, -(extension.length + 1));
    if (!stem) continue;
    let locale = folder?.locale ?? DEFAULT_LOCALE;
    if (type.localized && !folder) {
      const dot = stem.lastIndexOf('.');
      const suffix = dot > 0 ? stem.slice(dot + 1) : '';
      const listed = !type.suffixLocales || type.suffixLocales.some((l) => l.toLowerCase() === suffix.toLowerCase());
      if (suffix && LOCALE.test(suffix) && listed) {
        locale = suffix;
        stem = stem.slice(0, dot);
      } else if (defaultLocale) {
        locale = defaultLocale;
      } else {
        return undefined;
      }
    }
    return { type: type.name, path: stem, locale, format: extension };
  }
  return undefined;
}

/** Groups of names that differ only by case (they would overwrite each other on macOS/Windows). */
export function caseFoldCollisions(names: Iterable<string>): string[][] {
  const groups = new Map<string, Set<string>>();
  for (const name of names) {
    const key = name.normalize('NFC').toLowerCase();
    const group = groups.get(key) ?? new Set<string>();
    group.add(name.normalize('NFC'));
    groups.set(key, group);
  }
  return [...groups.values()].filter((g) => g.size > 1).map((g) => [...g].sort());
}
