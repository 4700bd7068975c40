/**
 * The hash that decides "same content": SHA-256 of the canonical JSON of frontmatter, LF body and
 * format. A file's line endings, BOM, YAML formatting and comments never change it.
 */
import { createHash } from 'node:crypto';
import { canonicalJson } from '@cms/core/schema';

export function contentHash(frontmatter: Record<string, unknown>, body: string, format: string): string {
  const text = canonicalJson({ frontmatter, body: body.replace(/\r\n/g, '\n'), format });
  return `sha256:${createHash('sha256').update(text, 'utf8').digest('hex')}`;
}
