/**
 * Text PostgreSQL stores (docs/api.md "Input rules"): no NUL character (U+0000), which `text` and `jsonb`
 * refuse, and no lone UTF-16 surrogate, which is no Unicode text (`jsonb` refuses its escape).
 */

/** U+0000, or a high surrogate not followed by a low one, or a low surrogate not preceded by a high one. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: NUL is exactly what the rule refuses.
const UNSTORABLE = /\u0000|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** What makes a string unstorable, or null when PostgreSQL stores it. */
export function unstorablePart(value: string): 'nul' | 'lone surrogate' | null {
  const match = UNSTORABLE.exec(value);
  if (!match) return null;
  return match[0] === '\u0000' ? 'nul' : 'lone surrogate';
}
