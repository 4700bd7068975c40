/**
 * Messages written for editors (issue "The Studio for people who write all day", Words): the
 * validators in core speak to developers and API callers ("must match the pattern ^[a-z-]+$",
 * "must be the id (UUID) of a author document ..., got the string ..."), which is right for the API
 * and the CLI and wrong on a form. The Studio says the same in words: no patterns, no codes, no raw
 * values echoed back; the field's label is already in front of the message (error-summary.tsx).
 */

/** One rule: a core message's shape and the editor's words for it. */
type Rewrite = [RegExp, (...groups: string[]) => string];

const REWRITES: Rewrite[] = [
  [/^must match the pattern .*$/s, () => 'is not in the expected format: ask who set up the schema for an example'],
  [/^must be the id \(UUID\) of an? (\S+) document\b.*$/s, (type) => `must be a ${type} chosen with the picker`],
  [/^must be a date \(YYYY-MM-DD\) or an ISO 8601 date-time.*$/s, () => 'must be a date, such as 2026-03-01'],
  [
    /^must be an absolute http\(s\), mailto or tel URL$/,
    () => 'must be a web address starting with https://, or a mailto: or tel: link',
  ],
  [/^must be an e-mail address such as (.*)$/, (example) => `must be an email address, such as ${example}`],
  [/^must be one of (.*), got .*$/s, (list) => `must be one of ${list}`],
  [/^must be a string, got .*$/s, () => 'must be text'],
  [/^must be a number, got .*$/s, () => 'must be a number'],
  [/^must be true or false, got .*$/s, () => 'must be yes or no'],
  [
    /^must be an? (object|array), got .*$/s,
    () => 'has the wrong shape: undo your last change here, or ask who set up the schema',
  ],
  [/^must not be null: remove the item instead$/, () => 'is empty: fill it in, or remove the item'],
  [/^must not be null: give a value or omit the field$/, () => 'is empty: fill it in, or clear the field'],
  [/^must NOT have additional properties.*$/s, () => 'is not a field of this type'],
];

/** A field error as an editor should read it (the label goes before it). */
export function editorFieldMessage(message: string): string {
  for (const [shape, words] of REWRITES) {
    const match = shape.exec(message);
    if (match) return words(...match.slice(1));
  }
  // Any other message keeps its words, without an echoed raw value.
  return message.replace(/, got (the string )?.*$/s, '');
}
