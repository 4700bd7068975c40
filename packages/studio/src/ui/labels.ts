/**
 * Labels the Studio shows for schema names (types, fields): shared by the shell, the pages and the
 * editor, so it sits in ui/ below all of them.
 */

/** `blogPost` / `blog_post` / `blog-post` -> `Blog post`. */
export function labelOf(name: string): string {
  const words = name
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/[_-]+/g, ' ')
    .trim()
    .toLowerCase();
  return words.charAt(0).toUpperCase() + words.slice(1);
}
