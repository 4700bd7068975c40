/**
 * Which locale readings `cms init` takes (docs/cli.md "How init reads a tree"): the certain ones;
 * an uncertain one only when the person says so at the question (`--yes` answers no: the safe reading
 * is no locales, and a run that cannot ask fails naming the flags); `--locales <codes>` takes the
 * readings of exactly these codes and `--no-locales` none. It prints each reading with its evidence.
 */
import type { Context } from '../cli/context.js';
import { CliError, EXIT } from '../cli/exit-codes.js';
import { question } from '../cli/prompt.js';
import { localeName } from './locale-codes.js';
import {
  type AcceptedLocales,
  acceptFindings,
  type LocaleDetection,
  type LocaleFinding,
  NO_LOCALES,
} from './locale-layout.js';

export interface LocaleFlags {
  /** `--locales en,de`: these codes only; `--no-locales`: false. */
  locales?: string | boolean | undefined;
  /** `--default-locale de`. */
  defaultLocale?: string | undefined;
}

export interface LocaleChoice {
  accepted: AcceptedLocales;
  /** The readings taken, for the report and `--json`. */
  taken: LocaleFinding[];
  /** The readings left out, with why. */
  declined: { finding: LocaleFinding; reason: string }[];
  /** `--default-locale`, or the language given at the question about files without a suffix. */
  defaultLocale: string | undefined;
}

function usage(message: string, hint: string): CliError {
  return new CliError('USAGE', message, { exitCode: EXIT.usage, hint });
}

/** `--locales` and `--default-locale` values, checked against CLDR. */
export function checkedCodes(flags: LocaleFlags): { codes: string[] | undefined; defaultLocale: string | undefined } {
  const codes =
    typeof flags.locales === 'string'
      ? flags.locales
          .split(',')
          .map((c) => c.trim())
          .filter(Boolean)
      : undefined;
  for (const code of [...(codes ?? []), ...(flags.defaultLocale ? [flags.defaultLocale] : [])]) {
    if (!localeName(code))
      throw usage(
        `"${code}" is not a locale code CLDR knows.`,
        'Write language codes as a site would: en, de, pt-br, zh-hant, es-419 (comma-separated for --locales).',
      );
  }
  if (flags.locales === false && flags.defaultLocale)
    throw usage('--no-locales and --default-locale contradict each other.', 'Pass one of them.');
  if (codes && codes.length === 0)
    throw usage('--locales needs at least one code.', 'Pass --locales en,de, or --no-locales.');
  return { codes, defaultLocale: flags.defaultLocale };
}

const where = (f: LocaleFinding) =>
  f.kind === 'suffix'
    ? 'file name suffixes'
    : f.kind === 'single'
      ? `${f.base ? `${f.base}/` : ''}${f.locales[0]}/`
      : `${f.base || '.'}/<locale>/`;

/** Asks about an uncertain reading: yes takes it; `--yes` and no answer leave it out. */
async function askAbout(ctx: Context, finding: LocaleFinding): Promise<boolean> {
  if (ctx.prompt.yes) return false;
  if (!ctx.prompt.interactive) {
    throw new CliError(
      'LOCALES_UNCERTAIN',
      `Cannot tell whether ${where(finding)} carries locales (${finding.locales.join(', ')}): ${finding.doubts.join('; ')}.`,
      {
        exitCode: EXIT.cancelled,
        hint: 'Pass --yes to import without these locales (the safe reading), --locales <codes> to take them, or --no-locales.',
        details: { finding },
      },
    );
  }
  const answer = (await question(`Treat ${where(finding)} as locales ${finding.locales.join(', ')}? [y/N] `))
    .trim()
    .toLowerCase();
  return answer === 'y' || answer === 'yes';
}

/** The readings to take, asking about uncertain ones. */
export async function chooseLocales(
  ctx: Context,
  detection: LocaleDetection,
  flags: LocaleFlags,
): Promise<LocaleChoice> {
  const { codes, defaultLocale } = checkedCodes(flags);
  const taken: LocaleFinding[] = [];
  const declined: LocaleChoice['declined'] = [];
  if (flags.locales === false) {
    for (const finding of detection.findings)
      declined.push({ finding, reason: 'locale detection is off (--no-locales)' });
    return { accepted: NO_LOCALES, taken, declined, defaultLocale };
  }
  let chosenDefault = defaultLocale;
  for (const finding of detection.findings) {
    if (codes) {
      const listed = finding.locales.filter((l) => codes.some((c) => c.toLowerCase() === l.toLowerCase()));
      if (listed.length > 0) taken.push({ ...finding, locales: listed, certain: true });
      else declined.push({ finding, reason: 'not among --locales' });
      continue;
    }
    if (finding.doubts.length === 0 || (await askAbout(ctx, finding))) taken.push({ ...finding, certain: true });
    else declined.push({ finding, reason: `uncertain: ${finding.doubts.join('; ')}` });
  }
  // `--locales de` on a tree with no locale reading of de: the whole tree is in that language.
  if (codes?.length === 1 && taken.length === 0) chosenDefault ??= codes[0];
  return { accepted: acceptFindings(taken), taken, declined, defaultLocale: chosenDefault };
}

/**
 * Files of localized types that carry no locale (`docs/intro.md` beside `i18n/fr/...`, `about.md`
 * beside `about.fr.md`): their language is written nowhere. `--default-locale` (or the answer at the
 * question) names it; otherwise the safe reading is no locales at all, and a run that cannot ask fails.
 */
export async function settleUnlocalized(
  ctx: Context,
  choice: LocaleChoice,
  files: readonly string[],
): Promise<LocaleChoice> {
  if (files.length === 0 || choice.defaultLocale) return choice;
  const doubt = `${files.length} file(s) of the localized content carry no locale (${files.slice(0, 3).join(', ')}${files.length > 3 ? ', ...' : ''}), and their language is written nowhere`;
  let code: string | undefined;
  if (!ctx.prompt.yes && !ctx.prompt.interactive) {
    throw new CliError('LOCALES_UNCERTAIN', `Cannot tell the language of some files: ${doubt}.`, {
      exitCode: EXIT.cancelled,
      hint: 'Pass --default-locale <code> to name it, --yes to import without locales (the safe reading), or --no-locales.',
      details: { files: files.slice(0, 20), count: files.length },
    });
  }
  if (!ctx.prompt.yes) {
    code = (await question(`${doubt}. Their language (a code such as en; empty: no locales)? `)).trim();
    if (code && !localeName(code)) code = undefined;
  }
  if (code) return { ...choice, defaultLocale: code };
  return {
    accepted: NO_LOCALES,
    taken: [],
    declined: [...choice.taken.map((finding) => ({ finding, reason: `uncertain: ${doubt}` })), ...choice.declined],
    defaultLocale: undefined,
  };
}

/** What init read, with evidence and counts, on stdout (the data of a human run). */
export function printLocaleReport(ctx: Context, detection: LocaleDetection, choice: LocaleChoice): void {
  const { out } = ctx;
  for (const finding of choice.taken) {
    out.line(`locales from ${where(finding)}: ${finding.locales.join(', ')} (${finding.files} file(s))`);
    for (const line of finding.evidence) out.line(`  ${line}`);
  }
  for (const { finding, reason } of choice.declined) {
    out.line(`not taken as locales: ${where(finding)} ${finding.locales.join(', ')}: ${reason}`);
    for (const line of finding.evidence) out.line(`  ${line}`);
  }
  if (detection.lookalikes.size > 0) {
    const names = [...detection.lookalikes].sort((a, b) => b[1].length - a[1].length);
    const count = names.reduce((n, [, folders]) => n + folders.length, 0);
    out.line(
      `not locales: ${count} folder(s) named like a language beside folders that are not (${names
        .slice(0, 8)
        .map(([name, folders]) => `${name}/ x${folders.length}, e.g. ${folders[0]}`)
        .join('; ')}${names.length > 8 ? '; ...' : ''}): pages, kept in their paths`,
    );
  }
  if (choice.taken.length === 0 && choice.declined.length === 0)
    out.line('locales: none found (no locale folders or suffixes)');
}
