import { describe, expect, it } from 'vitest';
import type { SchemaType } from './field-types.js';
import { createValidatorCache, VALIDATOR_CACHE_MAX_ENTRIES } from './validator-cache.js';

function typeNamed(name: string): SchemaType {
  return {
    name,
    directory: name,
    localized: false,
    fields: { title: { kind: 'string', required: true, nullable: false, default: null, reference: null, checks: [] } },
  };
}

describe('createValidatorCache', () => {
  it('compiles a validator once per (schema hash, type name)', () => {
    const cache = createValidatorCache();
    const post = typeNamed('post');
    const first = cache.validatorFor('hash-1', post);
    expect(cache.validatorFor('hash-1', post)).toBe(first);
    expect(cache.validatorFor('hash-2', post)).not.toBe(first);
    expect(cache.validatorFor('hash-1', typeNamed('page'))).not.toBe(first);
    expect(cache.size).toBe(3);
    expect(first({ title: 'x' })).toEqual({ ok: true, value: { title: 'x' } });
  });

  it('evicts the least recently used validator when full', () => {
    const cache = createValidatorCache({ maxEntries: 2 });
    const a = cache.validatorFor('h', typeNamed('a'));
    const b = cache.validatorFor('h', typeNamed('b'));
    expect(cache.validatorFor('h', typeNamed('a'))).toBe(a);
    cache.validatorFor('h', typeNamed('c'));
    expect(cache.size).toBe(2);
    expect(cache.validatorFor('h', typeNamed('a'))).toBe(a);
    expect(cache.validatorFor('h', typeNamed('b'))).not.toBe(b);
  });

  it('is bounded by default and can be cleared', () => {
    const cache = createValidatorCache();
    for (let i = 0; i <= VALIDATOR_CACHE_MAX_ENTRIES; i += 1) cache.validatorFor(`h${i}`, typeNamed('post'));
    expect(cache.size).toBe(VALIDATOR_CACHE_MAX_ENTRIES);
    cache.clear();
    expect(cache.size).toBe(0);
  });

  it('refuses a bound below one', () => {
    expect(() => createValidatorCache({ maxEntries: 0 })).toThrow(RangeError);
  });
});
