/**
 * Reads that Next.js caches (a call with `next` options), tagged with the documents they answer.
 * Next.js tags a fetch before it is sent, and a read by slug or path, or one with `resolve`, shows
 * documents known only from its answer. So such a read is made in two cached steps: a lookup tagged
 * with what is known before (the document of a `get`, the path, the type of a list), then the read
 * tagged with every document the lookup answered (and the type's tag when it answered none, so that
 * the first document to take that slug or path refreshes the page). Were the lookup older than the read
 * (the read shows a document the lookup did not), a third step is tagged with what the read shows plus
 * the type. A page collects its reads' tags, so a change revalidates exactly the pages that show it.
 *
 * `next build` reuses `.next/cache`, whose entries know nothing of revalidations that happened in a
 * running server since; so in a build the lookup is made uncached (through the fetch Next.js patched, as
 * its `_nextOriginalFetch`), the read's cache key carries the SHA-256 of that fresh answer, and the fresh
 * answer is what the page gets: a build never shows data older than itself.
 */
import type { Document } from '@cms/core';
import { type AnswerDocuments, answerDocuments, answerTags, shownIds } from './cache-tags.js';
import type { CallOptions, CallSpec, Transport } from './transport.js';

/** Tells the cached steps of one read apart: Next.js keys its data cache by URL and headers. */
export const CACHE_STEP_HEADER = 'X-CMS-Cache-Step';
/** In a build: the SHA-256 of the fresh answer, so the cached read is the one of that content. */
export const ANSWER_DIGEST_HEADER = 'X-CMS-Answer-Digest';

/** What is known of a read before it is sent. */
export interface TaggedReadPlan {
  /** Tags known before the answer: the document of a `get`, the path, the type of a list. */
  keyTags: string[];
  /** The tag of a type's documents. */
  typeTagOf: (type: string) => string;
  /** Tag the answer's own documents (a `get`, a read by slug or path; a list's type tag covers its own). */
  own: boolean;
  /** A list by slug or path: an answer of no document is tagged with this (its type's tag). */
  emptyTag: string | null;
  /** The answer names documents the key tags do not (slug, path, `resolve`). */
  needsAnswer: boolean;
}

type Answer = Document | { data: readonly Document[] };

/** True for a call Next.js caches: `next` options, not `no-store`, not `revalidate: 0`. */
export function isNextCachedCall(call: CallOptions): boolean {
  return call.next !== undefined && call.cache !== 'no-store' && call.next.revalidate !== 0;
}

/** The fetch Next.js patched, while `next build` runs: it neither caches nor makes a page dynamic. */
function buildFetch(): typeof fetch | null {
  const phase = (globalThis as { process?: { env?: Record<string, string | undefined> } }).process?.env?.NEXT_PHASE;
  if (phase !== 'phase-production-build') return null;
  return (globalThis.fetch as typeof fetch & { _nextOriginalFetch?: typeof fetch })._nextOriginalFetch ?? null;
}

async function sha256(text: string): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(text));
  return Array.from(new Uint8Array(digest), (byte) => byte.toString(16).padStart(2, '0')).join('');
}

function step(spec: CallSpec, tags: readonly string[], headers: Record<string, string> = {}): CallSpec {
  const own = spec.next?.tags ?? [];
  return {
    ...spec,
    headers: { ...spec.headers, ...headers },
    next: { ...spec.next, tags: [...new Set([...own, ...tags])] },
  };
}

function tagsOf(found: AnswerDocuments, plan: TaggedReadPlan): string[] {
  const empty = plan.emptyTag !== null && found.own.length === 0 ? [plan.emptyTag] : [];
  return [...plan.keyTags, ...answerTags(found, plan.own, plan.typeTagOf), ...empty];
}

/** True when the tags given to a read cover what it answered. */
function covers(tags: readonly string[], looked: AnswerDocuments, read: AnswerDocuments, plan: TaggedReadPlan) {
  const known = shownIds(looked);
  if (![...shownIds(read)].every((id) => known.has(id))) return false;
  return read.own.length > 0 || plan.emptyTag === null || tags.includes(plan.emptyTag);
}

/** A content read through Next.js's cache, tagged with what it answers (see the file's comment). */
export async function taggedRead<T>(transport: Transport, spec: CallSpec, plan: TaggedReadPlan): Promise<T> {
  const uncached = buildFetch();
  if (!uncached && !plan.needsAnswer) return transport.call<T>(step(spec, plan.keyTags));
  const lookup = uncached
    ? await transport.call<T>({ ...step(spec, plan.keyTags), fetch: uncached })
    : await transport.call<T>(step(spec, plan.keyTags, { [CACHE_STEP_HEADER]: 'lookup' }));
  const looked = answerDocuments(lookup as Answer);
  const tags = tagsOf(looked, plan);
  if (uncached) {
    // The page gets the fresh answer; this cached read of the same content only tags the page.
    await transport.call<T>(step(spec, tags, { [ANSWER_DIGEST_HEADER]: await sha256(JSON.stringify(lookup)) }));
    return lookup;
  }
  const read = await transport.call<T>(step(spec, tags));
  const shown = answerDocuments(read as Answer);
  if (covers(tags, looked, shown, plan)) return read;
  const types = [...shown.own, ...shown.references].map((document) => plan.typeTagOf(document.type));
  const recheck = [...tagsOf(shown, plan), ...types, ...(plan.emptyTag === null ? [] : [plan.emptyTag])];
  return transport.call<T>(step(spec, recheck, { [CACHE_STEP_HEADER]: 'recheck' }));
}
