/**
 * Bodies full of what editors like to rewrite (STUDIO-NOTES 19): the Studio's round-trip test
 * (fidelity.e2e.ts) saves them untouched, and the body commands' property test (body-commands.test.ts)
 * edits them at random places. Line endings of every kind are here: LF, CRLF, lone CR, and mixed.
 */

export const MARKDOWN = [
  '\uFEFF# Tricky *document*',
  '',
  '* star bullet',
  '+ plus bullet',
  '- dash bullet',
  '',
  'Some _underscored emphasis_ and __strong__, an escaped \\*star\\* and \\_underscore\\_, a line with two trailing spaces  ',
  'and a hard break above. A footnote[^1] and a {{< shortcode param="x" >}}.',
  '',
  '<div class="raw">',
  '  <p>HTML block kept as is</p>',
  '</div>',
  '',
  '| a | b |',
  '|:--|--:|',
  '| 1 | 2 |',
  '',
  '1) numbered with parens',
  '2) second',
  '',
  '[^1]: The footnote text.',
  '',
].join('\n');

export const CRLF_NO_FINAL_NEWLINE =
  'First line\r\nSecond line  \r\n\r\n* item\r\n* item two\r\nlast line without newline';

export const MDX = [
  "import { Chart } from '../components/chart'",
  'export const meta = { draft: true }',
  '',
  '# MDX {meta.draft ? "draft" : "live"}',
  '',
  '<Chart data={[1, 2, 3]} title="Sales" />',
  '',
  '<Callout type="warning">',
  '  Text *inside* a component.',
  '</Callout>',
  '',
  'Inline {1 + 1} expression.',
].join('\n');

/** CRLF with a final newline, a list, a heading, emphasis and an image. */
export const CRLF_DOCUMENT = [
  '# Windows file',
  '',
  'A paragraph with words in it.',
  '',
  '- first item',
  '- second item',
  '',
  '![a picture](/media/a.png)',
  '',
  'Third paragraph here.',
  '',
].join('\r\n');

/** Old Mac endings: a lone CR ends every line. */
export const LONE_CR = 'Title line\r\r* one\r* two\r\rLast *words*\r';

/** Every ending at once (a file edited on several systems), a CR before the last LF kept as a break. */
export const MIXED_ENDINGS = 'LF line\nCRLF line\r\nlone CR line\rLF again\n\r\n- item\r\n- item\nend';

/** The whole corpus by name. */
export const FIDELITY_CORPUS: Readonly<Record<string, string>> = {
  markdown: MARKDOWN,
  crlfNoFinalNewline: CRLF_NO_FINAL_NEWLINE,
  mdx: MDX,
  crlf: CRLF_DOCUMENT,
  loneCr: LONE_CR,
  mixed: MIXED_ENDINGS,
};
