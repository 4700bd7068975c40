/**
 * What a collection's loader remembers between loads (the collection's `meta` store, key `state`, kept
 * by Astro in its data store between builds) and how it decides what to fetch: the change feed
 * (docs/api.md "Change feed"), whose cursor never skips a change however transactions interleave (a
 * timestamp such as `updatedAt` is stamped before its transaction commits, so a release committing
 * around a single publish could hide changes from a loader that asked "updated since").
 *
 * A first load (or other options, another server) pages the feed to its end first, then lists the whole
 * collection, and keeps that cursor: a change committed during the listing is listed by the feed after
 * it and fetched again next time. A later load reads the feed from its cursor; each document of the
 * collection's type that changed is fetched (`published`; with `draft: true` also draft saves) or
 * leaves (`unpublished`, `deleted`). A cursor the feed no longer follows (`CHANGES_CURSOR_EXPIRED`)
 * means a full load, then following from the cursor the refusal names.
 */
import type { Change } from '@cms/core';
import { type CmsClient, type Document, isCmsError } from '@cms/sdk';
import type { LoaderContext } from 'astro/loaders';

/** How a load went: everything, only what changed, or nothing to do. */
export type LoadMode = 'full' | 'incremental' | 'unchanged';

/** What the loader remembers between loads. */
export interface LoaderState {
  /**
   * SHA-256 of what the entries were loaded from (server, project, environment, options): another value
   * means a full load. A digest, never the options themselves: Astro writes the meta store to disk (and
   * build caches travel), and the options may hold the API key.
   */
  source: string;
  /** Where to read the change feed from next time. */
  cursor: string;
  /** Entry id by document id. */
  entries: Record<string, string>;
}

/** Where fetched documents go. */
export interface DocumentSink {
  readonly entries: Record<string, string>;
  readonly fetched: Set<string>;
  put(doc: Document): Promise<void>;
  /** The document left the collection. */
  drop(documentId: string): Promise<void>;
}

/** What to read: the list query of the collection, and whether it shows drafts. */
export interface CollectionQuery {
  type: string;
  locale?: string;
  draft?: true;
  resolve?: string[];
}

const PAGE = 100;
const FEED_PAGE = 1000;
/** Past this many changed documents, one listing of the collection costs fewer requests than one read each. */
const REFETCH_ONE_BY_ONE = 50;

/** The hex SHA-256 of the JSON of a value (Web Crypto: Node, Deno and Bun alike). */
export async function sourceDigest(value: unknown): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(JSON.stringify(value)));
  return Array.from(new Uint8Array(digest), (byte) => byte.toString(16).padStart(2, '0')).join('');
}

export function readState(ctx: LoaderContext, source: string): LoaderState | null {
  const raw = ctx.meta.get('state');
  if (!raw) return null;
  try {
    const state = JSON.parse(raw) as LoaderState;
    return state.source === source && typeof state.cursor === 'string' ? state : null;
  } catch {
    return null;
  }
}

export function saveState(ctx: LoaderContext, state: LoaderState): void {
  ctx.meta.set('state', JSON.stringify(state));
}

/** The end of the feed as it stands: where a full load's reader follows from. */
async function feedEnd(cms: CmsClient, query: CollectionQuery): Promise<string> {
  let cursor = '';
  for await (const page of cms.changes.pages({ limit: FEED_PAGE, ...(query.draft ? { draft: true } : {}) }))
    cursor = page.pagination.nextCursor;
  return cursor;
}

/** The newest change of each document of the collection after `since`, and the cursor after them. */
async function changesSince(cms: CmsClient, query: CollectionQuery, since: string) {
  const latest = new Map<string, Change>();
  let cursor = since;
  for await (const page of cms.changes.pages({ since, limit: FEED_PAGE, ...(query.draft ? { draft: true } : {}) })) {
    for (const change of page.data) {
      if (change.type !== query.type || (query.locale && change.locale !== query.locale)) continue;
      latest.set(change.documentId, change);
    }
    cursor = page.pagination.nextCursor;
  }
  return { latest, cursor };
}

/** Whether a change takes the document out of the collection. */
function leaves(change: Change, draft: boolean): boolean {
  return change.change === 'deleted' || (!draft && change.change === 'unpublished');
}

async function listAll(cms: CmsClient, query: CollectionQuery, sink: DocumentSink): Promise<void> {
  for (const key of Object.keys(sink.entries)) delete sink.entries[key];
  for await (const doc of cms.content.iterate({ ...query, sort: 'path', order: 'asc', limit: PAGE }))
    await sink.put(doc);
}

/** Fetches what changed since `state` into `sink`; answers how, and the cursor to keep. */
export async function fetchChanges(
  cms: CmsClient,
  query: CollectionQuery,
  state: LoaderState | null,
  sink: DocumentSink,
): Promise<{ mode: LoadMode; cursor: string }> {
  if (state) {
    let found: Awaited<ReturnType<typeof changesSince>>;
    try {
      found = await changesSince(cms, query, state.cursor);
    } catch (error) {
      if (!isCmsError(error) || error.code !== 'CHANGES_CURSOR_EXPIRED') throw error;
      // Too old to follow: everything again, then from the end of the feed the refusal names.
      const cursor = String((error.details as { cursor?: unknown }).cursor ?? (await feedEnd(cms, query)));
      await listAll(cms, query, sink);
      return { mode: 'full', cursor };
    }
    if (found.latest.size === 0) return { mode: 'unchanged', cursor: found.cursor };
    if (found.latest.size > REFETCH_ONE_BY_ONE) {
      await listAll(cms, query, sink);
      return { mode: 'full', cursor: found.cursor };
    }
    for (const change of found.latest.values()) {
      if (leaves(change, query.draft === true)) {
        await sink.drop(change.documentId);
        continue;
      }
      const options = { ...(query.draft ? { draft: true } : {}), ...(query.resolve ? { resolve: query.resolve } : {}) };
      try {
        await sink.put(await cms.content.get(change.documentId, options));
      } catch (error) {
        // Gone again after this change (a later one the feed lists past this page): it leaves.
        if (!isCmsError(error) || error.code !== 'NOT_FOUND') throw error;
        await sink.drop(change.documentId);
      }
    }
    return { mode: 'incremental', cursor: found.cursor };
  }
  const cursor = await feedEnd(cms, query);
  await listAll(cms, query, sink);
  return { mode: 'full', cursor };
}
