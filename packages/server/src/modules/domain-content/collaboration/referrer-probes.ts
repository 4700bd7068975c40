/**
 * Where a document's id can sit in the frontmatter of each type: one containment value per
 * reference field aimed at the document's type, shaped like the field's place in the frontmatter
 * (`author` -> `{"author": id}`, an array `related` -> `{"related": [id]}`, an array of objects
 * `blocks.author` -> `{"blocks": [{"author": id}]}`). `@>` then finds them on a GIN index.
 */
import type { FieldMetadata, SchemaType } from '@cms/core';
import type { ReferrerProbe } from '../../../storage/repositories/referrers.repository.js';

type Wrap = (inner: unknown) => unknown;

function probesIn(
  fields: Record<string, FieldMetadata>,
  target: { typeName: string; targetType: string; id: string },
  prefix: string,
  wrap: Wrap,
  out: ReferrerProbe[],
): void {
  for (const [name, meta] of Object.entries(fields)) {
    const field = prefix === '' ? name : `${prefix}.${name}`;
    const at: Wrap = (inner) => wrap({ [name]: inner });
    const push = (contains: unknown) => out.push({ type: target.typeName, field, contains });
    if (meta.kind === 'reference') {
      if (meta.reference?.targetType === target.targetType) push(at(target.id));
    } else if (meta.kind === 'object' && meta.fields) {
      probesIn(meta.fields, target, field, at, out);
    } else if (meta.kind === 'array' && meta.items) {
      const { items } = meta;
      if (items.kind === 'reference' && items.reference?.targetType === target.targetType) push(at([target.id]));
      else if (items.kind === 'object' && items.fields)
        probesIn(items.fields, target, field, (inner) => at([inner]), out);
    }
  }
}

/**
 * The probes for a document of `targetType` with id `id`, across every type of the schema. Ids are
 * stored as written; the server writes them lowercase, so the lowercase id is the one looked for.
 */
export function referrerProbes(types: Iterable<SchemaType>, targetType: string, id: string): ReferrerProbe[] {
  const out: ReferrerProbe[] = [];
  for (const type of types) {
    probesIn(type.fields, { typeName: type.name, targetType, id: id.toLowerCase() }, '', (inner) => inner, out);
  }
  return out;
}
