/**
 * The locales `cms init` writes into the config, in order (the default first), and how files name
 * them: the most used locale is the default unless `--default-locale` says otherwise; files of localized
 * types that carry no locale (no suffix, outside the locale folders) are of the default locale, whose files
 * then keep carrying none (`markDefaultLocale: false`); with no locale reading at all, `--default-locale de` adopts the whole
 * tree as that language (every type localized, no file renamed).
 */
import type { SchemaType } from '@cms/core';
import type { Inferred } from './infer-schema.js';
import type { LocaleChoice } from './locale-choice.js';
import { localeName } from './locale-codes.js';

export interface LocaleNaming {
  types: SchemaType[];
  /** The default first. */
  locales: string[];
  /** False: the default locale's files carry no suffix. */
  markDefaultLocale: boolean | undefined;
  /** Why the default is the default, for the report. */
  defaultReason: string;
}

export function localeNaming(inferred: Inferred, choice: LocaleChoice): LocaleNaming {
  const given = choice.defaultLocale;
  const found = inferred.locales;
  if (found.length === 0) {
    if (!given) return { types: inferred.types, locales: [], markDefaultLocale: undefined, defaultReason: '' };
    return {
      types: inferred.types.map((type) => ({ ...type, localized: true })),
      locales: [given],
      markDefaultLocale: false,
      defaultReason: `every file is ${localeName(given)}, as --default-locale says`,
    };
  }
  const locales = given ? [given, ...found.filter((l) => l.toLowerCase() !== given.toLowerCase())] : found;
  const reason = given
    ? `${localeName(given)}, as --default-locale says`
    : found.length === 1
      ? `the only one, ${localeName(found[0] as string)}`
      : `${localeName(found[0] as string)}, the most used`;
  return {
    types: inferred.types,
    locales,
    // Files that carry no locale are the default's: the default's files keep carrying none.
    markDefaultLocale: inferred.unlocalized.length > 0 && given ? false : undefined,
    defaultReason: reason,
  };
}

/** What `--json` shows of the locale readings. */
export function localeData(choice: LocaleChoice) {
  const view = (f: LocaleChoice['taken'][number]) => ({
    kind: f.kind,
    base: f.base,
    locales: f.locales,
    files: f.files,
    evidence: f.evidence,
    doubts: f.doubts,
  });
  return {
    taken: choice.taken.map(view),
    declined: choice.declined.map(({ finding, reason }) => ({ ...view(finding), reason })),
  };
}
