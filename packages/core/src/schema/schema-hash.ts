import { createHash } from 'node:crypto';
import canonicalizeModule from 'canonicalize';

type Canonicalize = (input: unknown) => string | undefined;

// canonicalize@2 is CommonJS (`module.exports = fn`) while its typings say `export default`; under
// NodeNext that types the default import as the module object, though at run time it is the
// function. Accept both shapes so a bundler's interop cannot change the result.
const canonicalize: Canonicalize =
  typeof canonicalizeModule === 'function'
    ? (canonicalizeModule as unknown as Canonicalize)
    : (canonicalizeModule as unknown as { default: Canonicalize }).default;

/**
 * RFC 8785 (JSON Canonicalization Scheme) text of a JSON value: keys sorted by UTF-16 code units,
 * no whitespace, ECMAScript number formatting. Throws a TypeError for values JSON cannot carry.
 */
export function canonicalJson(value: unknown): string {
  const text = canonicalize(value);
  if (text === undefined) {
    throw new TypeError(`Cannot canonicalize a value of type ${typeof value}: it is not JSON.`);
  }
  return text;
}

/**
 * The schema hash (spec/decisions.md §3): lowercase hex SHA-256 of the canonical JSON of the
 * resolved schema. Example: `computeSchemaHash({ types: [] })`.
 */
export function computeSchemaHash(resolvedSchema: unknown): string {
  return createHash('sha256').update(canonicalJson(resolvedSchema), 'utf8').digest('hex');
}
