/**
 * What an entry holds: its id (the document path, locale-prefixed for a localized type) and `data`,
 * the frontmatter with each resolved reference replaced by the referenced entry's id, so Astro's
 * `reference()` and `getEntry()` find it, plus `documentId`, `locale`, `version` and `updatedAt`.
 */
import type { Document } from '@cms/sdk';

/** The locale documents of a type that is not localized carry (docs/api.md). */
export const UNLOCALIZED = '__cms_default__';

/**
 * The entry id of a document: its path, prefixed by its locale when its type is localized (told by
 * the locale, so a key without `schema:read` works).
 */
export function entryId(doc: Pick<Document, 'path' | 'locale'>): string {
  return doc.locale === UNLOCALIZED ? doc.path : `${doc.locale}/${doc.path}`;
}

/** A reference `resolve` replaced by the referenced document. */
interface Resolved {
  documentId: string;
  type: string;
  path: string;
  frontmatter: unknown;
}

function isResolved(value: unknown): value is Resolved {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return false;
  const record = value as Record<string, unknown>;
  return typeof record.documentId === 'string' && typeof record.path === 'string' && 'frontmatter' in record;
}

/** Every resolved reference in a frontmatter (resolution is one level deep: no nested ones). */
export function resolvedReferences(value: unknown, into: Resolved[] = []): Resolved[] {
  if (isResolved(value)) into.push(value);
  else if (Array.isArray(value)) for (const item of value) resolvedReferences(item, into);
  else if (value !== null && typeof value === 'object')
    for (const item of Object.values(value)) resolvedReferences(item, into);
  return into;
}

/** The frontmatter with each resolved reference replaced by its entry id (`localeOf` for localized targets). */
export function withEntryIds(value: unknown, localeOf: (documentId: string) => string | undefined): unknown {
  if (isResolved(value)) return entryId({ path: value.path, locale: localeOf(value.documentId) ?? UNLOCALIZED });
  if (Array.isArray(value)) return value.map((item) => withEntryIds(item, localeOf));
  if (value !== null && typeof value === 'object')
    return Object.fromEntries(Object.entries(value).map(([name, item]) => [name, withEntryIds(item, localeOf)]));
  return value;
}

/** An entry's `data` before Astro parses it. */
export function entryData(
  doc: Document,
  localeOf: (documentId: string) => string | undefined,
): Record<string, unknown> {
  return {
    ...(withEntryIds(doc.frontmatter, localeOf) as Record<string, unknown>),
    documentId: doc.documentId,
    locale: doc.locale,
    version: doc.version,
    updatedAt: doc.updatedAt,
  };
}
