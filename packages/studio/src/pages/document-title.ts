import type { ContentDocument } from '../api/index.js';

/** What to call a document in lists: its title-like field, else its path. */
export function titleOf(doc: Pick<ContentDocument, 'frontmatter' | 'path'>): string {
  for (const key of ['title', 'name', 'label', 'heading']) {
    const value = doc.frontmatter?.[key];
    if (typeof value === 'string' && value.trim()) return value;
  }
  return doc.path;
}
