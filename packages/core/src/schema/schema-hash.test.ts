import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { canonicalJson, computeSchemaHash } from './schema-hash.js';

describe('canonicalJson', () => {
  it('sorts keys by UTF-16 code units and drops whitespace (RFC 8785 §3.2.3)', () => {
    expect(canonicalJson({ b: 1, a: [true, null, 'x'], '\u20ac': 1, '\r': 2, '1': 3 })).toBe(
      '{"\\r":2,"1":3,"a":[true,null,"x"],"b":1,"\u20ac":1}',
    );
  });

  it('formats numbers as ECMAScript does (RFC 8785 §3.2.2.3)', () => {
    expect(canonicalJson([1e21, 1e-7, -0, 0.1, 100, 333333333.3333333])).toBe(
      '[1e+21,1e-7,0,0.1,100,333333333.3333333]',
    );
  });

  it('sorts nested objects too', () => {
    expect(canonicalJson({ z: { y: 1, x: { b: 2, a: 1 } } })).toBe('{"z":{"x":{"a":1,"b":2},"y":1}}');
  });

  it('refuses values JSON cannot carry', () => {
    expect(() => canonicalJson(undefined)).toThrow(TypeError);
    expect(() => canonicalJson(Number.NaN)).toThrow();
    expect(() => canonicalJson({ a: Number.POSITIVE_INFINITY })).toThrow();
  });
});

describe('computeSchemaHash', () => {
  it('is the lowercase hex SHA-256 of the canonical JSON', () => {
    // sha256('{"types":[]}'), computed independently.
    expect(computeSchemaHash({ types: [] })).toBe('77266b09d4f59715778bc5fd507aefc59e2c6269ab885d7451ad680a20bb651f');
  });

  it('hashes non-ASCII text as UTF-8', () => {
    const schema = { types: [{ name: 'post', directory: 'blogg/ä', localized: false, fields: {} }] };
    const expected = createHash('sha256')
      .update(Buffer.from(canonicalJson(schema), 'utf8'))
      .digest('hex');
    expect(computeSchemaHash(schema)).toBe(expected);
  });

  it('does not depend on key order', () => {
    const a = { types: [{ name: 'post', directory: 'posts', localized: false, fields: {} }] };
    const b = { types: [{ fields: {}, localized: false, directory: 'posts', name: 'post' }] };
    expect(computeSchemaHash(a)).toBe(computeSchemaHash(b));
  });

  it('depends on type order, since types are an array', () => {
    const post = { name: 'post', directory: 'posts', localized: false, fields: {} };
    const page = { name: 'page', directory: 'pages', localized: false, fields: {} };
    expect(computeSchemaHash({ types: [post, page] })).not.toBe(computeSchemaHash({ types: [page, post] }));
  });
});
