import { describe, expect, it } from 'vitest';
import { mergeFrontmatter, mergeText } from './three-way-merge.js';

describe('mergeFrontmatter', () => {
  it('takes each side’s own changes and never writes back a value only the other side changed', () => {
    const base = { title: 'Base', tags: ['a'], summary: 'old', draft: true };
    const mine = { title: 'Mine', tags: ['a'], summary: 'old', draft: true };
    const theirs = { title: 'Base', tags: ['a', 'b'], summary: 'old', draft: false, extra: 1 };
    const result = mergeFrontmatter(base, mine, theirs);
    expect(result.merged).toEqual({ title: 'Mine', tags: ['a', 'b'], summary: 'old', draft: false, extra: 1 });
    expect(result.conflicts).toEqual([]);
    expect(Object.fromEntries(result.keys.map((key) => [key.key, key.changedBy]))).toEqual({
      title: 'mine',
      tags: 'theirs',
      summary: 'nobody',
      draft: 'theirs',
      extra: 'theirs',
    });
  });

  it('calls different changes of one key a conflict (keeping mine) and the same change none', () => {
    const result = mergeFrontmatter({ a: 1, b: 1 }, { a: 2, b: 3 }, { a: 2, b: 4 });
    expect(result.conflicts).toEqual(['b']);
    expect(result.merged).toEqual({ a: 2, b: 3 });
    expect(result.keys.map((key) => key.changedBy)).toEqual(['both-same', 'both']);
  });

  it('drops a key the other side removed and I left alone', () => {
    expect(mergeFrontmatter({ a: 1, b: 2 }, { a: 1, b: 2 }, { a: 1 }).merged).toEqual({ a: 1 });
  });
});

describe('mergeText', () => {
  it('merges edits of different lines', () => {
    const base = 'one\ntwo\nthree\nfour\n';
    expect(mergeText(base, 'ONE\ntwo\nthree\nfour\n', 'one\ntwo\nthree\nFOUR\n')).toEqual({
      text: 'ONE\ntwo\nthree\nFOUR\n',
      conflicts: 0,
    });
  });

  it('keeps mine where both changed the same line, and counts it', () => {
    expect(mergeText('one\ntwo\n', 'uno\ntwo\n', 'eins\ntwo\n')).toEqual({ text: 'uno\ntwo\n', conflicts: 1 });
  });
});
