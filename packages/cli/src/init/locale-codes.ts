/**
 * Whether a folder or suffix name is a locale, by the CLDR data Node's `Intl` carries (full ICU on
 * Node 20 and later): a language CLDR names, optionally with a script and a region it names too
 * (`en`, `pt-br`, `zh-hant`, `es-419`). Names a loose BCP 47 check accepts are refused: variants
 * (`box-sizing`, `set-cookie`), unknown subtags (`js`, `api`, `go`), special codes (`und`, `mul`) and
 * aliases CLDR would rewrite (`cls` is Sanskrit's old code: a folder named `cls` is never `sa`).
 * Whether such a folder is a locale folder is a question of structure (locale-layout.ts), not of the
 * name alone: `min`, `pi` and `br` are languages and also pages.
 */

const SHAPE = /^[a-z]{2,3}(-[a-z]{4})?(-([a-z]{2}|\d{3}))?$/i;
const SPECIAL = new Set(['und', 'mul', 'mis', 'zxx']);

interface Names {
  language: Intl.DisplayNames;
  region: Intl.DisplayNames;
  script: Intl.DisplayNames;
}
// Made on first use: loading the display names costs every command (not only init) tens of ms.
let names: Names | undefined;

function displayNames(): Names {
  names ??= {
    language: new Intl.DisplayNames(['en'], { type: 'language', fallback: 'none' }),
    region: new Intl.DisplayNames(['en'], { type: 'region', fallback: 'none' }),
    script: new Intl.DisplayNames(['en'], { type: 'script', fallback: 'none' }),
  };
  return names;
}

/** The English name of a locale (`German`, `Portuguese (Brazil)`), or undefined when `code` is not one. */
export function localeName(code: string): string | undefined {
  if (!SHAPE.test(code)) return undefined;
  try {
    const [canonical] = Intl.getCanonicalLocales(code);
    if (!canonical || canonical.toLowerCase() !== code.toLowerCase()) return undefined;
    const locale = new Intl.Locale(canonical);
    if (SPECIAL.has(locale.language)) return undefined;
    const { language, region, script } = displayNames();
    const name = language.of(locale.language);
    if (!name) return undefined;
    const parts: string[] = [];
    if (locale.script) {
      const scriptName = script.of(locale.script);
      if (!scriptName) return undefined;
      parts.push(scriptName);
    }
    if (locale.region) {
      const regionName = region.of(locale.region);
      if (!regionName) return undefined;
      parts.push(regionName);
    }
    return parts.length > 0 ? `${name} (${parts.join(', ')})` : name;
  } catch {
    return undefined;
  }
}

/** A locale tag CLDR knows, spelled as it canonically is up to case (`en`, `pt-br`, `zh-CN`); not `js`, `api`. */
export function isLocaleCode(code: string): boolean {
  return localeName(code) !== undefined;
}
