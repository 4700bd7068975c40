import type { SchemaType } from './field-types.js';
import { compileFrontmatterValidator, type FrontmatterValidator } from './frontmatter-validator.js';

/** How many compiled validators a cache keeps before evicting the least recently used. */
export const VALIDATOR_CACHE_MAX_ENTRIES = 500;

/** Compiled frontmatter validators, one per (schema hash, type name). */
export interface ValidatorCache {
  /** The validator of `type` under `schemaHash`, compiled on first use. */
  validatorFor(schemaHash: string, type: SchemaType): FrontmatterValidator;
  /** Number of validators held. */
  readonly size: number;
  /** Drops every validator. */
  clear(): void;
}

/**
 * Creates an LRU cache of frontmatter validators. A schema hash names one immutable schema, so
 * (hash, type name) identifies a validator and a type is compiled once per schema version.
 */
export function createValidatorCache(options: { maxEntries?: number } = {}): ValidatorCache {
  const maxEntries = options.maxEntries ?? VALIDATOR_CACHE_MAX_ENTRIES;
  if (!Number.isInteger(maxEntries) || maxEntries < 1) {
    throw new RangeError(`maxEntries must be a positive integer, got ${maxEntries}`);
  }
  // A Map iterates in insertion order: re-inserting on each hit keeps the oldest entry first.
  const entries = new Map<string, FrontmatterValidator>();
  return {
    validatorFor(schemaHash, type) {
      const key = `${schemaHash}\u0000${type.name}`;
      const hit = entries.get(key);
      if (hit) {
        entries.delete(key);
        entries.set(key, hit);
        return hit;
      }
      const validator = compileFrontmatterValidator(type);
      entries.set(key, validator);
      if (entries.size > maxEntries) {
        const oldest = entries.keys().next();
        if (!oldest.done) entries.delete(oldest.value);
      }
      return validator;
    },
    get size() {
      return entries.size;
    },
    clear() {
      entries.clear();
    },
  };
}
