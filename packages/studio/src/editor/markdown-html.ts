import { html } from '@codemirror/lang-html';
import { commonmarkLanguage } from '@codemirror/lang-markdown';
import { Language } from '@codemirror/language';
import type { Extension } from '@codemirror/state';
import { type MarkdownParser, parseCode } from '@lezer/markdown';

/**
 * The HTML part of the body editor's Markdown support, in its own chunk with the HTML, CSS and
 * JavaScript grammars (markdown-language.ts says when it loads): exactly what `markdown()` of
 * `@codemirror/lang-markdown` nests by default, an HTML language that does not match closing tags,
 * parsing HTML blocks and inline tags, with its support (a `>` typed after `<div` closes the tag).
 */
const htmlNoMatch = html({ matchClosingTags: false });
const parser = (commonmarkLanguage.parser as MarkdownParser).configure([
  parseCode({ htmlParser: htmlNoMatch.language.parser }),
]);

/** What this module adds: the Markdown language nesting HTML, and the HTML language's support. */
export interface MarkdownHtml {
  language: Language;
  support: Extension;
}

export const markdownHtml: MarkdownHtml = {
  language: new Language(commonmarkLanguage.data, parser, [], 'markdown'),
  support: htmlNoMatch.support,
};
