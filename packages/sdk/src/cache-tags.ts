/**
 * Next.js cache tags of content reads (docs/frameworks.md "Next.js"): what a read is tagged with, and
 * what `revalidateHandler` revalidates for a change. A type's tag covers its lists, a document's tag
 * every read that shows it (as the answer or as a resolved reference), a path's tag the reads of that
 * path (a document moved there or published there for the first time).
 */
import type { Document } from '@cms/core';

/** Next.js drops tags longer than this (NEXT_CACHE_TAG_MAX_LENGTH). */
const TAG_MAX_LENGTH = 256;
/** Past this many document tags on one read, the referenced types' tags are used instead (Next keeps 128). */
export const MAX_DOCUMENT_TAGS = 64;

/** The Next.js cache tag of a type's documents: what `revalidateHandler` revalidates on a change. */
export function typeTag(project: string, environment: string, type: string): string {
  return `cms:${project}:${environment}:${type}`;
}

/** The Next.js cache tag of one document. */
export function documentTag(documentId: string): string {
  return `cms:document:${documentId}`;
}

/** The Next.js cache tag of reads by `path`; `null` when it would be too long to be a tag. */
export function pathTag(project: string, environment: string, type: string, path: string): string | null {
  const tag = `cms:${project}:${environment}:${type}:path:${path}`;
  return tag.length <= TAG_MAX_LENGTH ? tag : null;
}

/** The documents an answer shows: its own, and the references `resolve` put in their frontmatter. */
export interface AnswerDocuments {
  own: ShownDocument[];
  references: ShownDocument[];
}

/** A document an answer shows. */
export interface ShownDocument {
  documentId: string;
  type: string;
}

function isResolved(value: object): value is ShownDocument {
  const record = value as Record<string, unknown>;
  return typeof record.documentId === 'string' && typeof record.type === 'string' && 'frontmatter' in record;
}

function collectReferences(value: unknown, into: AnswerDocuments['references']): void {
  if (Array.isArray(value)) for (const item of value) collectReferences(item, into);
  else if (value !== null && typeof value === 'object') {
    // Resolution is one level deep (docs/api.md): a resolved document's own frontmatter holds ids only.
    if (isResolved(value)) into.push({ documentId: value.documentId, type: value.type });
    else for (const item of Object.values(value)) collectReferences(item, into);
  }
}

/** The documents of a read's answer: one document, or a page of them. */
export function answerDocuments(answer: Document | { data: readonly Document[] }): AnswerDocuments {
  const documents = 'data' in answer ? answer.data : [answer];
  const found: AnswerDocuments = { own: [], references: [] };
  for (const document of documents) {
    found.own.push({ documentId: document.documentId, type: document.type });
    collectReferences(document.frontmatter, found.references);
  }
  return found;
}

/** Every document id an answer shows. */
export function shownIds(found: AnswerDocuments): Set<string> {
  return new Set([...found.own, ...found.references].map((shown) => shown.documentId));
}

/**
 * The tags an answer adds to its read: each document shown (its own only when `own`, since the type's
 * tag already covers the members of a list), or past MAX_DOCUMENT_TAGS the tags of the types shown,
 * which cover them all.
 */
export function answerTags(found: AnswerDocuments, own: boolean, typeTagOf: (type: string) => string): string[] {
  const shown = [...(own ? found.own : []), ...found.references];
  const ids = new Set(shown.map((document) => document.documentId));
  if (ids.size <= MAX_DOCUMENT_TAGS) return [...ids].map(documentTag);
  return [...new Set(shown.map((document) => typeTagOf(document.type)))];
}
