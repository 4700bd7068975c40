import { DOCUMENT_TITLE_KEYS } from '@cms/core';
import type { ContentDocument } from '../api/index.js';

/** What to call a document in lists: its title-like field (as a search hit's `title`), else its path. */
export function titleOf(doc: Pick<ContentDocument, 'frontmatter' | 'path'>): string {
  for (const key of DOCUMENT_TITLE_KEYS) {
    const value = doc.frontmatter?.[key];
    if (typeof value === 'string' && value.trim()) return value;
  }
  return doc.path;
}
