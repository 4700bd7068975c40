/**
 * Labels the Studio shows for schema names (types, fields) and documents: shared by the shell, the
 * pages and the editor, so it sits in ui/ below all of them.
 */
import { documentTitle } from '@cms/core/document-title';
import type { ContentDocument } from '../api/index.js';

/** `blogPost` / `blog_post` / `blog-post` -> `Blog post`. */
export function labelOf(name: string): string {
  const words = name
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/[_-]+/g, ' ')
    .trim()
    .toLowerCase();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/** What to call a document in lists: its title-like field (as a search hit's `title`), else its path. */
export function titleOf(doc: Pick<ContentDocument, 'frontmatter' | 'path'>): string {
  return documentTitle(doc.frontmatter) ?? doc.path;
}
