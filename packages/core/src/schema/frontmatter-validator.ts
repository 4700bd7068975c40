import type { SchemaType } from './field-types.js';
import { compileFieldMap, type FieldErrors, isPlainObject } from './field-validator.js';

/** The JSON path root of frontmatter errors, as in `frontmatter.seo.description`. */
export const FRONTMATTER_PATH = 'frontmatter';

/** Outcome of validating frontmatter: the value to store (defaults applied) or errors by JSON path. */
export type FrontmatterValidation =
  | { ok: true; value: Record<string, unknown> }
  | { ok: false; fields: Record<string, string> };

/** A compiled validator of one content type's frontmatter. */
export type FrontmatterValidator = (frontmatter: unknown) => FrontmatterValidation;

/**
 * Compiles a type's frontmatter validator once (regexes, enum sets, nested field maps); calling it
 * applies defaults, enforces required/nullable/kinds/checks, and keeps properties the schema does
 * not name. The input is never mutated.
 *
 * @example
 * const validate = compileFrontmatterValidator(type);
 * const result = validate({ title: 'Hello' });
 * if (!result.ok) throw invalidInput(result.fields);
 */
export function compileFrontmatterValidator(type: SchemaType): FrontmatterValidator {
  const validateFields = compileFieldMap(type.fields);
  return (frontmatter) => {
    if (!isPlainObject(frontmatter)) {
      return { ok: false, fields: { [FRONTMATTER_PATH]: 'must be an object of field values' } };
    }
    const errors: FieldErrors = {};
    const value = validateFields(frontmatter, FRONTMATTER_PATH, errors);
    if (Object.keys(errors).length > 0) return { ok: false, fields: errors };
    return { ok: true, value };
  };
}
