import { parseMarkdown, type SyntaxExtensions } from '@cms/sdk/markdown';
import { mdxFromMarkdown } from 'mdast-util-mdx';
import { mdxjs } from 'micromark-extension-mdxjs';

/**
 * MDX syntax checking with the parser MDX itself uses (micromark's MDX extensions with acorn for
 * expressions and ESM, mdast-util-mdx for JSX tag pairing), through the Studio's one Markdown
 * pipeline (`@cms/sdk/markdown`), so the check and the preview read a body the same way and the
 * Studio reports what the site's build would: unclosed or mismatched tags, broken expressions,
 * invalid import/export lines. Loaded on demand by the editor, only for MDX bodies.
 */

/** MDX's syntax for the pipeline: the check uses it, and the preview of an MDX body. */
export function mdxSyntax(): SyntaxExtensions {
  return { extensions: [mdxjs()], mdastExtensions: [mdxFromMarkdown()] };
}
export interface MdxProblem {
  message: string;
  /** 1-based, as the parser counts them (CRLF and LF both end a line). */
  line: number;
  column: number;
  /** Where the problem ends, when the parser says. */
  endLine?: number;
  endColumn?: number;
}

interface Point {
  line?: number;
  column?: number;
}

export function checkMdx(body: string): MdxProblem | null {
  try {
    parseMarkdown(body, mdxSyntax());
    return null;
  } catch (caught) {
    const error = caught as {
      reason?: string;
      message?: string;
      cause?: { message?: string };
      place?: Point & { start?: Point; end?: Point };
    };
    let message = error.reason ?? error.message ?? String(caught);
    // acorn's own words say what is wrong in an expression or an import/export line.
    const detail = error.cause?.message?.replace(/\s*\(\d+:\d+\)$/, '');
    if (detail && !message.includes(detail)) message = `${message}: ${detail}`;
    const place = error.place ?? {};
    let start = place.start ?? place;
    let end = place.start ? place.end : undefined;
    if (!start.line) {
      // A tag left open at the end of the body is reported without a place; the message names the
      // opening tag's position, which is where the person has to look.
      const named = /\((\d+):(\d+)-(\d+):(\d+)\)/.exec(message);
      if (named) {
        start = { line: Number(named[1]), column: Number(named[2]) };
        end = { line: Number(named[3]), column: Number(named[4]) };
      }
    }
    return {
      message,
      line: start.line ?? 1,
      column: start.column ?? 1,
      ...(end?.line && end.column ? { endLine: end.line, endColumn: end.column } : {}),
    };
  }
}
