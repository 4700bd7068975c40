/**
 * Frontmatter patching below the top level: a pull edits only what changed, at any depth, in block
 * and flow style, and dates stay as the user wrote them (CLI notes §2: never reformat YAML the user
 * did not change; write date fields as unquoted dates).
 */

import type { FieldShapes } from '@cms/core/source';
import { patchYamlText } from '@cms/core/source';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Document, parseDocument, visit } from 'yaml';
import { frontmatterOf, normalizeBody, patchFile, renderNewFile, splitFile } from '../../src/sync/frontmatter.js';

// A post whose dates sit at every depth: top level, in an object, in objects in a list, in a list.
const FIELDS: FieldShapes = {
  title: { kind: 'string' },
  date: { kind: 'date' },
  seo: { kind: 'object', fields: { description: { kind: 'string' }, published: { kind: 'date' } } },
  events: {
    kind: 'array',
    items: { kind: 'object', fields: { at: { kind: 'date' }, name: { kind: 'string' } } },
  },
  days: { kind: 'array', items: { kind: 'date' } },
};

type Json = Record<string, any>;

/** The file after the server's version of its content (the current one, changed by `edit`) is pulled. */
function pulled(text: string, edit: (frontmatter: Json) => void): string {
  const split = splitFile(text);
  const frontmatter = structuredClone(frontmatterOf(split)) as Json;
  edit(frontmatter);
  const result = patchFile(split, frontmatter, normalizeBody(split.body), FIELDS);
  expect(frontmatterOf(splitFile(result))).toEqual(frontmatter);
  return result;
}

const POST = `---
title: Hello # shown in lists
date: 2026-01-02
seo:
  # what search engines see
  description: The first post # short
  published: 2026-01-02
events: [{ at: 2026-01-05, name: Launch party }]
days:
  - 2026-01-01
---
Body
`;

describe('dates inside objects and lists', () => {
  it('stay plain when something next to them changes, block and flow', () => {
    expect(
      pulled(POST, (fm) => {
        fm.seo.description = 'Edited in the Studio';
        fm.events[0].name = 'Launch party!';
      }),
    ).toBe(
      POST.replace('description: The first post', 'description: Edited in the Studio').replace(
        'name: Launch party }',
        'name: Launch party! }',
      ),
    );
  });

  it('a changed nested date stays plain where it was plain, quoted where it was quoted', () => {
    expect(
      pulled(POST, (fm) => {
        fm.seo.published = '2026-02-02';
        fm.events[0].at = '2026-02-05';
        fm.days[0] = '2026-02-01';
      }),
    ).toBe(
      POST.replace('published: 2026-01-02', 'published: 2026-02-02')
        .replace('at: 2026-01-05', 'at: 2026-02-05')
        .replace('- 2026-01-01', '- 2026-02-01'),
    );
    const quoted = '---\nseo:\n  published: \'2026-01-02\'\nevents: [{ at: "2026-01-05" }]\n---\n';
    expect(
      pulled(quoted, (fm) => {
        fm.seo.published = '2026-02-02';
        fm.events[0].at = '2026-02-05';
      }),
    ).toBe('---\nseo:\n  published: \'2026-02-02\'\nevents: [{ at: "2026-02-05" }]\n---\n');
  });

  it('new items, keys and files write the dates of date fields plain and other date-like strings quoted', () => {
    expect(
      pulled(POST, (fm) => {
        fm.events.push({ at: '2026-03-01', name: 'Second' });
        fm.days.push('2026-03-03');
        fm.seo.note = '2026-01-01';
      }),
    ).toBe(
      POST.replace('name: Launch party }]', 'name: Launch party }, { at: 2026-03-01, name: Second }]')
        .replace('  - 2026-01-01\n', '  - 2026-01-01\n  - 2026-03-03\n')
        .replace('  published: 2026-01-02\n', '  published: 2026-01-02\n  note: "2026-01-01"\n'),
    );
    const text = renderNewFile(
      {
        title: 'T',
        seo: { description: 'D', published: '2026-01-02' },
        events: [{ at: '2026-01-05', name: 'Launch' }],
        days: ['2026-01-01'],
        other: { at: '2026-01-01' },
      },
      'Body\n',
      FIELDS,
    );
    expect(text).toBe(
      '---\ntitle: T\nseo:\n  description: D\n  published: 2026-01-02\nevents:\n  - at: 2026-01-05\n    name: Launch\ndays:\n  - 2026-01-01\nother:\n  at: "2026-01-01"\n---\nBody\n',
    );
    expect(pulled(text, () => undefined)).toBe(text);
  });

  it('a whole new nested value (a new key holding an object) writes its dates plain', () => {
    const text = '---\ntitle: T\n---\n';
    const split = splitFile(text);
    expect(patchFile(split, { title: 'T', seo: { published: '2026-01-02' } }, '', FIELDS)).toBe(
      '---\ntitle: T\nseo:\n  published: 2026-01-02\n---\n',
    );
  });
});

describe('nested edits in place', () => {
  it('removes a nested key or list items with their lines; comments elsewhere stay', () => {
    expect(
      pulled(POST, (fm) => {
        delete fm.seo.description;
        fm.days.unshift('2025-12-31');
        fm.events = [];
      }),
    ).toBe(
      POST.replace('  description: The first post # short\n', '')
        .replace('  - 2026-01-01\n', '  - 2025-12-31\n  - 2026-01-01\n')
        .replace('events: [{ at: 2026-01-05, name: Launch party }]', 'events: []'),
    );
    const list = '---\nitems:\n  - a: 1 # one\n  - a: 2 # two\n  - a: 3 # three\n---\n';
    expect(pulled(list, (fm) => fm.items.splice(1, 1))).toBe('---\nitems:\n  - a: 1 # one\n  - a: 3 # three\n---\n');
  });

  it('new items of a flow list follow its own spacing', () => {
    expect(
      pulled('---\ntags: [ one,two ]\nmap: {a: 1}\n---\n', (fm) => {
        fm.tags.push('three');
        fm.map.b = 2;
      }),
    ).toBe('---\ntags: [ one,two,three ]\nmap: {a: 1, b: 2}\n---\n');
  });

  it('new lines follow the file’s indentation', () => {
    const text = '---\nseo:\n    title: x\ntags:\n- a\n---\n';
    expect(
      pulled(text, (fm) => {
        fm.seo.og = { image: 'a.png' };
        fm.tags.push('b');
      }),
    ).toBe('---\nseo:\n    title: x\n    og:\n        image: a.png\ntags:\n- a\n- b\n---\n');
  });

  it('a value that changes kind is re-rendered in its place only', () => {
    expect(
      pulled(POST, (fm) => {
        fm.seo = 'none';
        fm.days = { from: '2026-01-01' };
      }),
    ).toBe(
      '---\ntitle: Hello # shown in lists\ndate: 2026-01-02\nseo: none\nevents: [{ at: 2026-01-05, name: Launch party }]\ndays:\n  from: "2026-01-01"\n---\nBody\n',
    );
  });

  it('quotes YAML 1.1 traps and writes multi-line strings safely at any depth', () => {
    expect(
      pulled('---\nmeta: { mood: happy }\nlines: [a]\n---\n', (fm) => {
        fm.meta.mood = 'no';
        fm.lines.push('two\nlines');
      }),
    ).toBe('---\nmeta: { mood: "no" }\nlines: [a, "two\\nlines"]\n---\n');
  });

  it('anchors and aliases are re-rendered, still reading back as the server’s content', () => {
    const text = '---\nbase: &b { x: 1 }\nother: *b\ntitle: on\n---\n';
    const result = pulled(text, (fm) => {
      fm.base.x = 2;
      fm.title = 'off';
    });
    expect(result).toContain('title: "off"');
  });
});

// Random frontmatter in random styles (flow or block per collection, 2 or 4 spaces, indented lists
// or not), then random edits at any depth.
const key = fc.stringMatching(/^[a-zA-Z][a-zA-Z0-9_-]{0,6}$/);
const scalar = fc.oneof(
  fc.string({ maxLength: 12 }),
  fc.constantFrom('no', 'on', '3.10', '0123', '10:00', '2024-01-01', 'null', '- x', '#x', ': y', '', 'a, b', 'x\ny'),
  fc.integer(),
  fc.boolean(),
  fc.constant(null),
);
const value = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: 'small' },
    scalar,
    fc.array(tie('value'), { maxLength: 4 }),
    fc.dictionary(key, tie('value'), { maxKeys: 4 }),
  ),
})).value;
const frontmatter = fc.dictionary(key, value, { minKeys: 1, maxKeys: 5 });
const LEAVES = [1, 'no', '2024-01-01', null, 'a, b', 'x\ny', { z: '2024-02-02' }, ['x', 'on'], [], {}];

/** Edits `value` in place at a random depth; `next` is a random number source in [0, 1). */
function mutate(value: any, next: () => number): any {
  const leaf = () => structuredClone(LEAVES[Math.floor(next() * LEAVES.length)]);
  if (Array.isArray(value)) {
    const roll = next();
    if (roll < 0.2 && value.length) value.splice(Math.floor(next() * value.length), 1);
    else if (roll < 0.4) value.splice(Math.floor(next() * (value.length + 1)), 0, leaf());
    else if (value.length) {
      const i = Math.floor(next() * value.length);
      value[i] = mutate(value[i], next);
    }
    return value;
  }
  if (value !== null && typeof value === 'object') {
    const keys = Object.keys(value);
    const roll = next();
    if (roll < 0.2 && keys.length > 1) delete value[keys[Math.floor(next() * keys.length)] as string];
    else if (roll < 0.4) value[`n${Math.floor(next() * 9)}`] = leaf();
    else if (keys.length) {
      const k = keys[Math.floor(next() * keys.length)] as string;
      value[k] = mutate(value[k], next);
    }
    return value;
  }
  return next() < 0.5 ? leaf() : value;
}

function styled(value: Json, flowBits: number, indent: number, indentSeq: boolean): string {
  const doc = new Document(value, { version: '1.2', compat: 'yaml-1.1' });
  let n = 0;
  const flow = (_: unknown, node: { flow?: boolean }) => {
    if ((flowBits >> (n++ % 16)) & 1) node.flow = true;
  };
  visit(doc, { Map: (k, node) => (k === null ? undefined : flow(k, node)), Seq: flow });
  return doc.toString({ lineWidth: 0, indent, indentSeq });
}

describe('nested patch properties', () => {
  it('edits in place read back as the new content, and top-level values nobody changed keep their bytes', () => {
    fc.assert(
      fc.property(
        frontmatter,
        fc.integer({ min: 0, max: 0xffff }),
        fc.constantFrom(2, 4),
        fc.boolean(),
        fc.array(fc.double({ min: 0, max: 0.999, noNaN: true }), { minLength: 40, maxLength: 40 }),
        (original, flowBits, indent, indentSeq, rolls) => {
          const before = JSON.parse(JSON.stringify(original)) as Json;
          const src = styled(before, flowBits, indent, indentSeq);
          let roll = 0;
          const next = () => rolls[roll++ % rolls.length] as number;
          const after = structuredClone(before);
          for (let i = 0; i < 1 + Math.floor(next() * 3); i++) mutate(after, next);
          const doc = parseDocument(src, { version: '1.2', schema: 'core', uniqueKeys: true });
          const out = patchYamlText(src, doc, before, after, undefined);
          // Only a frontmatter that loses every key it had is left to the re-render.
          if (!Object.keys(before).some((k) => k in after)) return;
          expect(out, src).toBeDefined();
          expect(frontmatterOf(splitFile(`---\n${out}---\n`))).toEqual(after);
          for (const pair of (doc.contents as any).items) {
            const name = String(pair.key.value);
            if (name in after && JSON.stringify(before[name]) === JSON.stringify(after[name])) {
              expect(out).toContain(src.slice(pair.key.range[0], pair.value.range[1]));
            }
          }
        },
      ),
      { numRuns: 400 },
    );
  });
});
