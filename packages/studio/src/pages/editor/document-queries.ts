/**
 * The editor's reads, through the query cache: the document with the draft this browser kept for it,
 * and the labels of the documents its references point at. Keys start with the target, so another
 * project or environment never shares an entry.
 */
import { useQuery } from '@tanstack/react-query';
import { type ContentDocument, content, type Target } from '../../api/index.js';
import { type LocalDraft, localDrafts } from '../../editor/local-drafts.js';
import { sameJson } from '../../editor/paths.js';
import { titleOf } from '../../ui/labels.js';

export interface LoadedDocument {
  doc: ContentDocument;
  /** A draft this browser kept that differs from the server copy; null when there is none. */
  offered: LocalDraft | null;
}

export const documentKey = (target: Target, id: string) => ['content', target.project, target.environment, id] as const;

/** Reads the document and the kept draft together: a draft equal to the server copy is dropped here. */
export async function loadDocument(target: Target, id: string, storageKey: string): Promise<LoadedDocument> {
  const doc = await content.get(target, id);
  const local = await localDrafts.get(storageKey);
  if (!local) return { doc, offered: null };
  if (!sameJson(local.frontmatter, doc.frontmatter) || local.body !== doc.body) {
    return { doc, offered: local };
  }
  await localDrafts.remove(storageKey);
  return { doc, offered: null };
}

/** The document being edited; `enabled` is false for a new one. Never refetched behind the person's back. */
export function useDocumentQuery(target: Target, id: string, storageKey: string, enabled: boolean) {
  return useQuery({
    queryKey: [...documentKey(target, id), 'with-local-draft'],
    queryFn: () => loadDocument(target, id, storageKey),
    enabled,
    staleTime: Number.POSITIVE_INFINITY,
    gcTime: 0,
  });
}

/** One request resolves every top-level reference of the document, for readable labels in the form. */
export function useReferenceLabels(target: Target, documentId: string | null, fields: string[]) {
  const query = useQuery({
    queryKey: [...documentKey(target, documentId ?? ''), 'reference-labels', fields],
    enabled: documentId !== null && fields.length > 0,
    queryFn: async () => {
      const resolved = await content.get(target, documentId as string, { resolve: fields });
      const labels: Record<string, string> = {};
      for (const name of fields) {
        const value = resolved.frontmatter[name];
        for (const item of Array.isArray(value) ? value : [value]) {
          if (item && typeof item === 'object' && 'documentId' in item) {
            const ref = item as { documentId: string; path: string; frontmatter: Record<string, unknown> };
            labels[ref.documentId] = `${titleOf(ref)} (${ref.path})`;
          }
        }
      }
      for (const [key, problem] of Object.entries(resolved.resolveErrors ?? {})) {
        labels[problem.ref.documentId] = `${problem.ref.documentId}: ${problem.message} (${problem.code}, ${key})`;
      }
      return labels;
    },
  });
  // Labels are a comfort: without them (still loading, or refused) the picker shows the ids.
  return query.data ?? {};
}
