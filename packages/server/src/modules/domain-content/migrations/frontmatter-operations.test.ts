import { describe, expect, it } from 'vitest';
import { applyOperations, isSameOrInside } from './frontmatter-operations.js';

describe('applyOperations', () => {
  it('renames, copies, sets and removes in order, leaving the input untouched', () => {
    const input = { title: 'T', subtitle: 'S', seo: { description: 'D' }, tags: ['a'] };
    const snapshot = structuredClone(input);
    const outcome = applyOperations(input, [
      { op: 'rename', from: 'subtitle', to: 'summary' },
      { op: 'copy', from: 'seo.description', to: 'meta.og.description' },
      { op: 'set', field: 'status', value: 'final' },
      { op: 'remove', field: 'tags' },
    ]);
    expect(outcome).toEqual({
      ok: true,
      changed: true,
      frontmatter: {
        title: 'T',
        summary: 'S',
        seo: { description: 'D' },
        meta: { og: { description: 'D' } },
        status: 'final',
      },
    });
    expect(input).toEqual(snapshot);
  });

  it('treats absent sources as no-ops and reports unchanged documents', () => {
    const outcome = applyOperations({ title: 'T', status: 'draft' }, [
      { op: 'rename', from: 'subtitle', to: 'summary' },
      { op: 'copy', from: 'seo.description', to: 'description' },
      { op: 'remove', field: 'missing.deeper' },
      { op: 'set', field: 'status', value: 'final', onlyIfMissing: true },
    ]);
    expect(outcome).toEqual({ ok: true, changed: false, frontmatter: { title: 'T', status: 'draft' } });
  });

  it('counts null as present for onlyIfMissing and sets absent fields', () => {
    expect(applyOperations({ a: null }, [{ op: 'set', field: 'a', value: 1, onlyIfMissing: true }])).toMatchObject({
      changed: false,
    });
    expect(applyOperations({}, [{ op: 'set', field: 'a.b', value: [1], onlyIfMissing: true }])).toEqual({
      ok: true,
      changed: true,
      frontmatter: { a: { b: [1] } },
    });
  });

  it('refuses to overwrite a taken target unless asked', () => {
    expect(applyOperations({ a: 1, b: 2 }, [{ op: 'rename', from: 'a', to: 'b' }])).toEqual({
      ok: false,
      fields: {
        'frontmatter.b': 'operations[0] (rename): already has a value: remove it first, or pass overwrite: true',
      },
    });
    expect(applyOperations({ a: 1, b: 2 }, [{ op: 'rename', from: 'a', to: 'b', overwrite: true }])).toEqual({
      ok: true,
      changed: true,
      frontmatter: { b: 1 },
    });
  });

  it('never writes through a value that is not an object', () => {
    const outcome = applyOperations({ seo: 'plain', x: 1 }, [
      { op: 'remove', field: 'title' },
      { op: 'copy', from: 'x', to: 'seo.description' },
    ]);
    expect(outcome).toEqual({
      ok: false,
      fields: {
        'frontmatter.seo.description':
          'operations[1] (copy): cannot be written: seo holds a value that is not an object',
      },
    });
  });

  it('copies deeply, so later operations do not alias', () => {
    const outcome = applyOperations({ seo: { description: 'D' } }, [
      { op: 'copy', from: 'seo', to: 'meta' },
      { op: 'set', field: 'meta.description', value: 'changed' },
    ]);
    expect(outcome).toMatchObject({ frontmatter: { seo: { description: 'D' }, meta: { description: 'changed' } } });
  });

  it('ignores key order when deciding whether a document changed', () => {
    const outcome = applyOperations({ b: 1, a: 2 }, [{ op: 'set', field: 'b', value: 1 }]);
    expect(outcome).toMatchObject({ changed: false });
  });
});

describe('isSameOrInside', () => {
  it('matches whole segments only', () => {
    expect(isSameOrInside('seo.title', 'seo')).toBe(true);
    expect(isSameOrInside('seo', 'seo')).toBe(true);
    expect(isSameOrInside('seoTitle', 'seo')).toBe(false);
  });
});
