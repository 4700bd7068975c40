import { describe, expect, it } from 'vitest';
import { errorKey, getAt, sameJson, setAt } from './paths.js';

describe('getAt', () => {
  const value = { seo: { tags: ['a', { label: 'b' }] }, n: 0 };

  it('reads nested objects and arrays', () => {
    expect(getAt(value, ['seo', 'tags', 1, 'label'])).toBe('b');
    expect(getAt(value, ['n'])).toBe(0);
    expect(getAt(value, [])).toBe(value);
  });

  it('gives undefined for paths through missing or scalar values', () => {
    expect(getAt(value, ['seo', 'missing', 'deeper'])).toBeUndefined();
    expect(getAt(value, ['n', 'x'])).toBeUndefined();
    expect(getAt(null, ['a'])).toBeUndefined();
  });
});

describe('setAt', () => {
  it('replaces one value and leaves the rest the same objects, in the same order', () => {
    const untouched = { nested: [1, '1', null, true] };
    const root = { title: 'Old', '10': 'integer-like key', extra: untouched, tags: ['a', 'b'] };
    const next = setAt(root, ['title'], 'New');
    expect(next).toEqual({ ...root, title: 'New' });
    expect(next.extra).toBe(untouched);
    expect(root.title).toBe('Old');
    expect(JSON.stringify(Object.keys(next))).toBe(JSON.stringify(Object.keys(root)));
  });

  it('writes inside arrays without turning them into objects', () => {
    const root = { tags: ['a', 'b', 'c'] };
    const next = setAt(root, ['tags', 1], 'B');
    expect(next.tags).toEqual(['a', 'B', 'c']);
    expect(Array.isArray(next.tags)).toBe(true);
    expect(root.tags).toEqual(['a', 'b', 'c']);
  });

  it('creates missing objects on the way', () => {
    expect(setAt({}, ['seo', 'description'], 'Text')).toEqual({ seo: { description: 'Text' } });
  });

  it('removes a key set to undefined instead of keeping it empty', () => {
    const next = setAt({ a: 1, b: { c: 2, d: 3 } }, ['b', 'c'], undefined);
    expect(next).toEqual({ a: 1, b: { d: 3 } });
    expect('c' in next.b).toBe(false);
  });

  it('replaces the root for the empty path', () => {
    expect(setAt({ a: 1 }, [], { b: 2 })).toEqual({ b: 2 });
  });
});

describe('errorKey', () => {
  it('names fields as the server does', () => {
    expect(errorKey(['title'])).toBe('frontmatter.title');
    expect(errorKey(['seo', 'tags', 2])).toBe('frontmatter.seo.tags[2]');
    expect(errorKey(['rows', 0, 'cells', 1, 'text'])).toBe('frontmatter.rows[0].cells[1].text');
    expect(errorKey([])).toBe('frontmatter');
  });
});

describe('sameJson', () => {
  it('treats key order and JSON types as differences', () => {
    expect(sameJson({ a: 1, b: 2 }, { a: 1, b: 2 })).toBe(true);
    expect(sameJson({ a: 1, b: 2 }, { b: 2, a: 1 })).toBe(false);
    expect(sameJson({ code: '007' }, { code: 7 })).toBe(false);
    expect(sameJson({ d: '2024-02-29' }, { d: '2024-02-29T00:00:00Z' })).toBe(false);
  });
});
