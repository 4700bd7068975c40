/**
 * What names a document in lists (a search hit's `title`, the Studio's lists and pickers). No imports:
 * clients with a bundle budget take it from `@cms/core/document-title` without the route contracts.
 */

/**
 * The frontmatter fields that name a document, in this order: the first that holds a non-blank string
 * is its title.
 */
export const DOCUMENT_TITLE_KEYS = ['title', 'name', 'label', 'heading'] as const;

/** The document's title by {@link DOCUMENT_TITLE_KEYS}, or null when none of them is set. */
export function documentTitle(frontmatter: Readonly<Record<string, unknown>> | null | undefined): string | null {
  for (const key of DOCUMENT_TITLE_KEYS) {
    const value = frontmatter?.[key];
    if (typeof value === 'string' && value.trim()) return value;
  }
  return null;
}
