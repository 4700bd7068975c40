/**
 * A document's source text (decisions.md §8 "Byte fidelity"): the file as the client wrote it. The
 * stored frontmatter and body stay the truth; the source is patched to read as them with core's YAML
 * patcher, so a value the server changed (a default filled in, an edit through the API or the Studio)
 * rewrites only the lines of its key, and comments, quoting, flow lists and key order stay.
 */
import type { FieldMetadata } from '@cms/core';
import { patchFile, splitFile } from '@cms/core/source';

/**
 * The source to keep after a write: the one sent, else the document's previous one, patched to the
 * stored content; null when there is neither (documents created through the API without a source get
 * the canonical rendering on the way out).
 */
export function sourceAfterWrite(options: {
  sent: string | undefined;
  previous: string | null | undefined;
  frontmatter: Record<string, unknown>;
  body: string;
  fields: Record<string, FieldMetadata>;
}): string | null {
  const base = options.sent ?? options.previous;
  if (base === undefined || base === null) return null;
  return patchFile(splitFile(base), options.frontmatter, options.body, options.fields);
}
