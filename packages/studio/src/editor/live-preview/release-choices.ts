/**
 * The releases the live preview can show (docs/live-preview.md "Previewing a release"): the open and
 * scheduled releases that publish this document. The release list carries no items, so each candidate
 * with items is read once, when the panel opens.
 */
import type { ReleaseSummary } from '@cms/core';
import { useEffect, useState } from 'react';
import { releases, type Target } from '../../api/index.js';

/** Statuses whose outcome is still ahead (a published or reverted release has nothing to preview). */
const PREVIEWABLE = ['open', 'scheduled'] as const;
/** How many releases of each status are looked at (newest first). */
const LOOKED_AT = 100;

export function useReleaseChoices(target: Target, documentId: string): ReleaseSummary[] {
  const [choices, setChoices] = useState<ReleaseSummary[]>([]);
  useEffect(() => {
    let cancelled = false;
    void (async () => {
      try {
        const pages = await Promise.all(
          PREVIEWABLE.map((status) => releases.list(target, { status, limit: LOOKED_AT })),
        );
        const candidates = pages.flatMap((page) => page.data).filter((release) => release.itemCount > 0);
        const read = await Promise.all(candidates.map((release) => releases.get(target, release.id)));
        const publishing = read.filter((release) =>
          release.items.some((item) => item.documentId === documentId && item.action === 'publish'),
        );
        if (!cancelled) setChoices(publishing);
      } catch {
        // Without the list the draft is still previewed; the releases page shows what went wrong.
      }
    })();
    return () => {
      cancelled = true;
    };
  }, [target, documentId]);
  return choices;
}
