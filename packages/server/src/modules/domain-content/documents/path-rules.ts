/**
 * Rules for document paths and locales (decisions.md §3 "path", "Locale"). Each check returns a
 * message for `details.fields`, or null when the value is fine.
 */

/** Locale of every document of a non-localized type (interface.md "Document"). */
export const DEFAULT_LOCALE = '__cms_default__';

/** Longest path (decisions.md §3) and locale tag: declared with the wire shapes that bound them. */
import { MAX_LOCALE_LENGTH, MAX_PATH_LENGTH } from '@cms/core';

export { MAX_LOCALE_LENGTH, MAX_PATH_LENGTH };

/** C0 controls, DEL and the C1 range: no path should carry them. */
function hasControlCharacter(value: string): boolean {
  for (let i = 0; i < value.length; i += 1) {
    const code = value.charCodeAt(i);
    if (code <= 0x1f || (code >= 0x7f && code <= 0x9f)) return true;
  }
  return false;
}
// "No file extension (the format says it)": a last segment ending in a markdown extension.
const FILE_EXTENSION = /\.(md|mdx|markdown)$/i;

/** Why a path breaks decisions.md §3, or null when it is valid. */
export function pathProblem(path: string): string | null {
  if (path.length === 0 || path.length > MAX_PATH_LENGTH) {
    return `must be 1 to ${MAX_PATH_LENGTH} characters long`;
  }
  if (path.includes('\\')) return 'must use forward slashes, not backslashes';
  if (hasControlCharacter(path)) return 'must not contain control characters';
  if (path.startsWith('/') || path.endsWith('/')) return 'must be relative: no leading or trailing slash';
  const segments = path.split('/');
  if (segments.some((segment) => segment === '' || segment === '.' || segment === '..')) {
    return 'must not contain empty, "." or ".." segments';
  }
  if (FILE_EXTENSION.test(path)) return 'must not end with a file extension: the format field says md or mdx';
  return null;
}

/** The canonical form of a BCP 47 tag (`en-us` -> `en-US`), or null when it is not one. */
export function canonicalLocale(locale: string): string | null {
  if (locale.length === 0 || locale.length > MAX_LOCALE_LENGTH) return null;
  try {
    return Intl.getCanonicalLocales(locale)[0] ?? null;
  } catch {
    // Intl throws a RangeError for anything that is not a well-formed language tag.
    return null;
  }
}

/** The locale a document gets, or the problem with the one sent, for a type localized or not. */
export function resolveLocale(
  localized: boolean,
  typeName: string,
  sent: string | undefined,
): { locale: string; problem: null } | { locale: null; problem: string } {
  const problem = (message: string) => ({ locale: null, problem: message });
  if (!localized) {
    if (sent === undefined || sent === DEFAULT_LOCALE) return { locale: DEFAULT_LOCALE, problem: null };
    return problem(`type "${typeName}" is not localized: omit locale or send "${DEFAULT_LOCALE}"`);
  }
  if (sent === undefined)
    return problem(`is required: type "${typeName}" is localized (send a BCP 47 tag such as "en")`);
  const locale = canonicalLocale(sent);
  if (!locale) return problem(`must be a BCP 47 language tag such as "en" or "de-CH", got ${JSON.stringify(sent)}`);
  return { locale, problem: null };
}

/** Suffix of a duplicate's path. */
export const COPY_SUFFIX = '-copy';

/**
 * The first free path for a copy: `<path>-copy`, then `<path>-copy-2`, `-copy-3`, ...
 * `taken` holds the paths in use that start with `<path>-copy`.
 */
export function firstFreeCopyPath(path: string, taken: ReadonlySet<string>): string {
  const base = `${path}${COPY_SUFFIX}`;
  if (!taken.has(base)) return base;
  for (let n = 2; ; n += 1) {
    const candidate = `${base}-${n}`;
    if (!taken.has(candidate)) return candidate;
  }
}
