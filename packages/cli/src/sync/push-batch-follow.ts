/**
 * A push batch whose answer is late (docs/cli.md "Long operations"): the server applies a batch in
 * one transaction, so its documents appear together. While following it, the digest (keys and draft
 * revisions, no content) tells whether they have: each create's path and locale taken, each update's
 * draft revision past the one it was sent against. Once they have, each document is read once and
 * recorded as if the answer had come in time.
 */
import type { DigestEntry } from '@cms/core';
import type { SyncItem } from './classify.js';
import type { SyncState } from './sync-state.js';

/** Which document of the server each item became, when all of them landed; undefined while not. */
export async function landedBatch(
  state: SyncState,
  items: readonly SyncItem[],
): Promise<Map<SyncItem, string> | undefined> {
  const types = [...new Set(items.map((item) => item.local?.key.type).filter((t): t is string => Boolean(t)))];
  const digest = await state.api.content.digest(types);
  const byKey = new Map<string, DigestEntry>();
  const byId = new Map<string, DigestEntry>();
  for (const entry of digest) {
    byKey.set(`${entry.type}\u0000${entry.path}\u0000${entry.locale.toLowerCase()}`, entry);
    byId.set(entry.documentId, entry);
  }
  const landed = new Map<SyncItem, string>();
  for (const item of items) {
    const key = item.local?.key;
    if (item.entry) {
      const now = byId.get(item.entry.id);
      if (!now || now.draftRevision <= item.entry.draftRevision) return undefined;
      landed.set(item, item.entry.id);
    } else if (key) {
      const now = byKey.get(`${key.type}\u0000${key.path}\u0000${key.locale.toLowerCase()}`);
      if (!now) return undefined;
      landed.set(item, now.documentId);
    }
  }
  return landed;
}
