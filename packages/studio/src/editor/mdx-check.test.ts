import { Text } from '@codemirror/state';
import { describe, expect, it } from 'vitest';
import { checkMdx } from './mdx-check.js';
import { mdxDiagnostic } from './mdx-diagnostic.js';

describe('checkMdx', () => {
  it('accepts MDX with imports, exports, components and expressions', () => {
    const body = [
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
    ].join('\n');
    expect(checkMdx(body)).toBeNull();
    expect(checkMdx('')).toBeNull();
    expect(checkMdx('Plain *markdown* only.\r\n\r\n* a list\r\n')).toBeNull();
  });

  it('reports a closing tag that does not match, where it stands', () => {
    expect(checkMdx('<Callout>\n\ntext\n\n</Chart>\n')).toEqual({
      message: 'Unexpected closing tag `</Chart>`, expected corresponding closing tag for `<Callout>` (1:1-1:10)',
      line: 5,
      column: 1,
      endLine: 5,
      endColumn: 9,
    });
  });

  it("reports a broken expression with acorn's reason", () => {
    const problem = checkMdx('Line one.\n\nInline {1 + } here.');
    expect(problem?.message).toMatch(/^Could not parse expression with acorn: Unexpected token/);
    expect(problem?.line).toBe(3);
  });

  it('reports a bad import line', () => {
    const problem = checkMdx("import { a from 'b'\n\n# Title");
    expect(problem?.message).toMatch(/^Could not parse import\/exports with acorn/);
    expect(problem?.line).toBe(1);
  });

  it('places a tag left open at the end of the body on the opening tag', () => {
    const problem = checkMdx('Intro.\r\n\r\n<Foo>\r\n\r\ntext\r\n');
    expect(problem).toMatchObject({ line: 3, column: 1, endLine: 3, endColumn: 6 });
    expect(problem?.message).toContain('Expected a closing tag for `<Foo>`');
  });

  it('reports an unterminated tag at the end of the body', () => {
    const problem = checkMdx('<Foo bar="x"\n\nmore');
    expect(problem?.message).toMatch(/^Unexpected end of file in attribute name/);
    expect(problem?.line).toBe(3);
  });
});

describe('mdxDiagnostic', () => {
  const doc = Text.of(['# Notes', '', '</Chart>', 'end']);

  it('underlines from the start to the end the parser gave, with the place in the message', () => {
    const d = mdxDiagnostic(doc, { message: 'Unexpected closing tag', line: 3, column: 1, endLine: 3, endColumn: 9 });
    expect(doc.sliceString(d.from, d.to)).toBe('</Chart>');
    expect(d).toMatchObject({ severity: 'error', source: 'MDX', message: 'Line 3, column 1: Unexpected closing tag' });
  });

  it('marks one character for a point, and the last one at the very end', () => {
    const point = mdxDiagnostic(doc, { message: 'x', line: 4, column: 2 });
    expect(doc.sliceString(point.from, point.to)).toBe('n');
    const end = mdxDiagnostic(doc, { message: 'x', line: 9, column: 1 });
    expect([end.from, end.to]).toEqual([doc.length - 1, doc.length]);
  });

  it('keeps columns past the end of a line on that line', () => {
    const d = mdxDiagnostic(doc, { message: 'x', line: 1, column: 99 });
    expect(d.to).toBe(doc.line(1).to);
    expect(d.from).toBe(doc.line(1).to - 1);
  });
});
