/**
 * File names of documents: `<type directory>/<path>[.<locale>].md|mdx`. Localized types always carry
 * the locale; non-localized ones never do. Paths are compared in Unicode NFC (macOS yields NFD).
 */
import type { SchemaType } from '@cms/core';

export const DEFAULT_LOCALE = '__cms_default__';
const LOCALE = /^[a-zA-Z]{2,3}(-[a-zA-Z0-9]{2,8})*$/;

export interface DocumentKey {
  type: string;
  path: string;
  locale: string;
  format: 'md' | 'mdx';
}

/** The relative file name (forward slashes, NFC) of a document. */
export function fileNameOf(type: SchemaType, doc: { path: string; locale: string; format: string }): string {
  const directory = type.directory.replace(/^\.?\/+|\/+$/g, '');
  const path = doc.path.replace(/^\/+/, '');
  const locale = type.localized && doc.locale !== DEFAULT_LOCALE ? `.${doc.locale}` : '';
  const name = `${path}${locale}.${doc.format === 'mdx' ? 'mdx' : 'md'}`;
  return (directory ? `${directory}/${name}` : name).normalize('NFC');
}

/**
 * The document a relative file name stands for, or undefined when it is not under a type directory
 * or not markdown. The longest matching directory wins.
 */
export function parseFileName(
  relative: string,
  types: readonly SchemaType[],
  defaultLocale?: string,
): DocumentKey | undefined {
  const name = relative.normalize('NFC').replace(/\\/g, '/');
  const extension = name.endsWith('.mdx') ? 'mdx' : name.endsWith('.md') ? 'md' : undefined;
  if (!extension) return undefined;
  const sorted = [...types].sort((a, b) => b.directory.length - a.directory.length);
  for (const type of sorted) {
    const directory = type.directory.replace(/^\.?\/+|\/+$/g, '');
    const prefix = directory ? `${directory}/` : '';
    if (!name.startsWith(prefix)) continue;
    let stem = name.slice(prefix.length, -(extension.length + 1));
    if (!stem) continue;
    let locale = DEFAULT_LOCALE;
    if (type.localized) {
      const dot = stem.lastIndexOf('.');
      const suffix = dot > 0 ? stem.slice(dot + 1) : '';
      if (suffix && LOCALE.test(suffix)) {
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
