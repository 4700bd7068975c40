import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { contentHash } from '../../src/sync/content-hash.js';
import { frontmatterOf, normalizeBody, patchFile, renderNewFile, splitFile } from '../../src/sync/frontmatter.js';

function read(text: string) {
  const split = splitFile(text);
  return { split, frontmatter: frontmatterOf(split), body: normalizeBody(split.body) };
}

/** Applying a file's own content to it changes nothing: the pull of an unchanged document. */
function identity(text: string): string {
  const { split, frontmatter, body } = read(text);
  return patchFile(split, frontmatter, body);
}

// The round-trip fixtures of the CLI notes: each must come back byte-identical.
const FIXTURES: Record<string, string> = {
  comments: '---\n# own-line comment\ntitle: Hello # trailing comment\ntags: [a, b]\n---\nBody\n',
  quotes: `---\nsingle: 'it''s'\ndouble: "say \\"hi\\""\nplain: plain text\nliteral: |\n  line one\n  line two\nfolded: >-\n  folded\n  text\n---\n`,
  yaml11: '---\nanswer: "no"\nswitch: "on"\nletter: "N"\nversion: "3.10"\nzip: "0123"\ntime: "10:00"\n---\nx\n',
  dates: '---\ndate: 2024-01-01\nat: 2024-01-01T10:00:00+02:00\n---\n',
  long: `---\ndescription: ${'a'.repeat(120)}\n---\n`,
  flow: '---\nlist: [ one,two ,  three ]\nmap: {a: 1, b: 2}\n---\n',
  unknownKeys: '---\nzeta: 1\nalpha: 2\nmiddle: 3\n---\n',
  crlf: '---\r\ntitle: Windows\r\n---\r\nline one\r\nline two\r\n',
  bom: '\uFEFF---\ntitle: BOM\n---\nbody\n',
  noFinalNewline: '---\ntitle: x\n---\nno newline at the end',
  blankBeforeClose: '---\ntitle: x\n\n---\nbody\n',
  bodyStartsWithFence: '---\ntitle: x\n---\n---\nnot frontmatter\n---\n',
  noFrontmatter: '# Just a body\n',
  emptyFrontmatter: '---\n---\nbody\n',
  unicode: '---\ntitle: "Café ☕ 日本語"\n---\nEmoji 🎉 body\n',
  mdx: '---\ntitle: x\n---\nimport X from "./x"\n\n<X prop={{ a: 1 }} />\n',
};

describe('frontmatter round trip', () => {
  for (const [name, text] of Object.entries(FIXTURES)) {
    it(`keeps ${name} byte-identical`, () => {
      expect(identity(text)).toBe(text);
    });
  }

  it('reads dates as strings, never Date objects', () => {
    expect(read(FIXTURES.dates as string).frontmatter).toEqual({ date: '2024-01-01', at: '2024-01-01T10:00:00+02:00' });
  });

  it('strips a BOM and normalizes CRLF for the hash only', () => {
    const crlf = read('\uFEFF---\r\ntitle: A\r\n---\r\nx\r\n');
    const lf = read('---\ntitle: A\n---\nx\n');
    expect(contentHash(crlf.frontmatter, crlf.body, 'md')).toBe(contentHash(lf.frontmatter, lf.body, 'md'));
  });

  it('changes one value in place, keeping comments, order and quote style', () => {
    const text = "---\n# comment\nb: 'old'\na: 1 # keep\n---\nbody\n";
    const { split } = read(text);
    expect(patchFile(split, { b: 'new', a: 1 }, 'body\n')).toBe("---\n# comment\nb: 'new'\na: 1 # keep\n---\nbody\n");
  });

  it('appends new keys at the end and deletes removed ones without reordering', () => {
    const { split } = read('---\nz: 1\ny: 2\nx: 3\n---\n');
    expect(patchFile(split, { z: 1, x: 3, w: 4 }, '')).toBe('---\nz: 1\nx: 3\nw: 4\n---\n');
  });

  it('keeps flow lists flow and blank lines before the closing fence when a value changes', () => {
    const { split } = read('---\ntags: [a, b]\ntitle: x\n\n---\n');
    expect(patchFile(split, { tags: ['a', 'b', 'c'], title: 'x' }, '')).toBe('---\ntags: [a, b, c]\ntitle: x\n\n---\n');
  });

  it('leaves untouched keys byte for byte when another key changes (flow spacing, comments)', () => {
    const text = '---\n# Launch post\ntitle: "We launched" # x\ntags: [news, launch]\nfeatured: true\n---\nBody\n';
    const { split } = read(text);
    const patched = patchFile(
      split,
      { title: 'We launched!', tags: ['news', 'launch'], featured: true, extra: 'no' },
      'Body\n',
    );
    expect(patched).toBe(
      '---\n# Launch post\ntitle: "We launched!" # x\ntags: [news, launch]\nfeatured: true\nextra: "no"\n---\nBody\n',
    );
  });

  it('quotes YAML 1.1 traps when writing', () => {
    const text = renderNewFile({ a: 'no', b: 'on', c: '3.10', d: '0123', e: '10:00', f: 'N' }, '');
    expect(read(text).frontmatter).toEqual({ a: 'no', b: 'on', c: '3.10', d: '0123', e: '10:00', f: 'N' });
    expect(text).not.toMatch(/a: no\n/);
  });

  it('quotes a YAML 1.1 trap set in place of a plain value, keeping a quoted value quoted', () => {
    const { split } = read("---\nmood: yes\ntitle: 'Hello' # c\n---\n");
    expect(patchFile(split, { mood: 'no', title: 'on' }, '')).toBe('---\nmood: "no"\ntitle: \'on\' # c\n---\n');
  });

  describe('dates (CLI notes: write date fields as unquoted YYYY-MM-DD; Tina and Decap rewrote them)', () => {
    const DATES = { date: { kind: 'date' }, at: { kind: 'date' } };

    it('a date written unquoted stays unquoted through pull, push and pull, with its own bytes', () => {
      const text = '---\ntitle: A\ndate: 2024-01-01\nat: 2024-01-01T10:00:00+02:00\n---\nbody\n';
      const { split, frontmatter, body } = read(text);
      expect(frontmatter).toEqual({ title: 'A', date: '2024-01-01', at: '2024-01-01T10:00:00+02:00' });
      expect(patchFile(split, frontmatter, body, DATES)).toBe(text);
      // Another key changes: the date's line is untouched.
      expect(patchFile(split, { ...frontmatter, title: 'B' }, body, DATES)).toBe(text.replace('title: A', 'title: B'));
      // A block value changes, which re-renders the frontmatter: still plain.
      const block = read('---\ndate: 2024-01-01\ntags:\n  - a\n---\n');
      expect(patchFile(block.split, { date: '2024-01-01', tags: ['b'] }, '', DATES)).toBe(
        '---\ndate: 2024-01-01\ntags:\n  - b\n---\n',
      );
    });

    it('a date changed on the server is written plain where it was plain, quoted where it was quoted', () => {
      expect(patchFile(read('---\ndate: 2024-01-01 # day\n---\n').split, { date: '2024-02-29' }, '', DATES)).toBe(
        '---\ndate: 2024-02-29 # day\n---\n',
      );
      expect(patchFile(read("---\ndate: '2024-01-01'\n---\n").split, { date: '2024-02-29' }, '', DATES)).toBe(
        "---\ndate: '2024-02-29'\n---\n",
      );
    });

    it('new files and new keys write date fields plain, other date-like strings quoted for YAML 1.1', () => {
      const text = renderNewFile(
        { title: 'T', date: '2024-03-03', at: '2024-01-01T10:00:00Z', note: '2024-01-01' },
        '',
        DATES,
      );
      expect(text).toBe('---\ntitle: T\ndate: 2024-03-03\nat: 2024-01-01T10:00:00Z\nnote: "2024-01-01"\n---\n');
      expect(read(text).frontmatter).toEqual({
        title: 'T',
        date: '2024-03-03',
        at: '2024-01-01T10:00:00Z',
        note: '2024-01-01',
      });
      expect(identity(text)).toBe(text);
      expect(patchFile(read('---\ntitle: T\n---\n').split, { title: 'T', date: '2024-03-03' }, '', DATES)).toBe(
        '---\ntitle: T\ndate: 2024-03-03\n---\n',
      );
      // A value of a date field that is not a date is an ordinary string.
      expect(renderNewFile({ date: 'soon' }, '', DATES)).toBe('---\ndate: soon\n---\n');
    });
  });

  it('writes a changed body with the file’s own line endings', () => {
    const { split } = read('---\r\ntitle: A\r\n---\r\nold\r\n');
    expect(patchFile(split, { title: 'A' }, 'new\nlines\n')).toBe('---\r\ntitle: A\r\n---\r\nnew\r\nlines\r\n');
  });

  it('does not fold long strings', () => {
    const text = renderNewFile({ d: 'word '.repeat(40).trim() }, '');
    expect(text.split('\n')).toHaveLength(4);
  });

  it('reports a YAML error with its line', () => {
    expect(() => read('---\ntitle: a\ntitle: b\n---\n')).toThrow(/unique|duplicate/i);
  });
});

// Frontmatter values the server can hold (JSON) and YAML can carry.
const key = fc.stringMatching(/^[a-zA-Z][a-zA-Z0-9_-]{0,10}$/);
const scalar = fc.oneof(
  fc.string({ unit: 'grapheme', maxLength: 40 }),
  fc.constantFrom('no', 'on', 'N', '3.10', '0123', '10:00', '2024-01-01', 'null', 'true', '- x', '#x', ': y', ''),
  fc.integer(),
  fc.double({ noNaN: true, noDefaultInfinity: true }).filter((n) => !Object.is(n, -0)),
  fc.boolean(),
  fc.constant(null),
);
const value = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: 'small' },
    scalar,
    fc.array(tie('value'), { maxLength: 3 }),
    fc.dictionary(key, tie('value'), { maxKeys: 3 }),
  ),
})).value;
const frontmatter = fc.dictionary(key, value, { maxKeys: 6 });
const body = fc.oneof(
  fc.string({ unit: 'grapheme', maxLength: 200 }),
  fc
    .array(fc.constantFrom('---', '# Title', '', 'text', '- item', '<X a={1} />', '```', '\t'), { maxLength: 8 })
    .map((l) => l.join('\n')),
);

describe('frontmatter properties', () => {
  it('a file written by the canonical writer reads back to the same content and is a fixed point', () => {
    fc.assert(
      fc.property(frontmatter, body, (fm, b) => {
        const text = renderNewFile(fm, normalizeBody(b));
        const back = read(text);
        expect(back.frontmatter).toEqual(fm);
        expect(back.body).toBe(normalizeBody(b));
        expect(identity(text)).toBe(text);
      }),
      { numRuns: 300 },
    );
  });

  it('patching a file with new content yields exactly that content, and a second patch changes nothing', () => {
    fc.assert(
      fc.property(frontmatter, body, frontmatter, body, fc.boolean(), (fm1, b1, fm2, b2, crlf) => {
        let text = renderNewFile(fm1, normalizeBody(b1));
        if (crlf) text = text.replace(/\r?\n/g, '\r\n');
        const patched = patchFile(splitFile(text), fm2, normalizeBody(b2));
        const back = read(patched);
        expect(back.frontmatter).toEqual(fm2);
        expect(back.body).toBe(normalizeBody(crlf ? normalizeBody(b2).replace(/\n/g, '\r\n') : b2));
        expect(patchFile(splitFile(patched), back.frontmatter, back.body)).toBe(patched);
      }),
      { numRuns: 300 },
    );
  });

  it('the hash ignores BOM, line endings and YAML formatting', () => {
    fc.assert(
      fc.property(frontmatter, body, (fm, b) => {
        const text = renderNewFile(fm, normalizeBody(b));
        const a = read(text);
        const c = read(`\uFEFF${text.replace(/\n/g, '\r\n')}`);
        expect(contentHash(c.frontmatter, c.body, 'md')).toBe(contentHash(a.frontmatter, a.body, 'md'));
      }),
      { numRuns: 200 },
    );
  });
});
