import { documentTitle } from '@cms/core/document-title';
import type { ContentDocument } from '../api/index.js';

/** What to call a document in lists: its title-like field (as a search hit's `title`), else its path. */
export function titleOf(doc: Pick<ContentDocument, 'frontmatter' | 'path'>): string {
  return documentTitle(doc.frontmatter) ?? doc.path;
}
