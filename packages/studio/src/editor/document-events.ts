/**
 * One server-sent-events stream per open document (`GET /api/v1/content/{documentId}/events`,
 * docs/studio.md "Presence"): it carries `presence` now and may carry other document events later.
 * Read with fetch rather than EventSource because the stream needs the routing headers
 * (`X-CMS-Project`, `X-CMS-Environment`), which EventSource cannot send; the session cookie goes with
 * it as with every Studio request (a GET needs no CSRF header). The event text is parsed by
 * `eventsource-parser`. A stream that ends (the server restarting, a network change) is opened again
 * with backoff; an answer that will not change by retrying (401, 403, 404) stops it.
 */
import type { DocumentEvents } from '@cms/core';
import { createParser } from 'eventsource-parser';
import type { Target } from '../api/index.js';

/** First wait before opening a lost stream again, doubled after each failure up to the cap. */
const RETRY_BASE_MS = 1_000;
const RETRY_MAX_MS = 30_000;
/** Answers that retrying will not change. */
const FINAL_STATUSES = new Set([400, 401, 403, 404]);

/** A handler per event name, each receiving that event's data. */
export type DocumentEventHandlers = { [Name in keyof DocumentEvents]?: (data: DocumentEvents[Name]) => void };

/** Opens the document's stream and keeps it open until the returned function is called. */
export function subscribeToDocumentEvents(
  target: Target,
  documentId: string,
  handlers: DocumentEventHandlers,
): () => void {
  const abort = new AbortController();
  let failures = 0;
  let retryTimer: ReturnType<typeof setTimeout> | undefined;

  const dispatch = (name: string, data: string) => {
    if (name === 'presence') handlers.presence?.(JSON.parse(data) as DocumentEvents['presence']);
  };

  const connect = async (): Promise<void> => {
    const response = await fetch(`/api/v1/content/${encodeURIComponent(documentId)}/events`, {
      headers: {
        accept: 'text/event-stream',
        'x-cms-project': target.project,
        'x-cms-environment': target.environment,
      },
      credentials: 'same-origin',
      cache: 'no-store',
      signal: abort.signal,
    });
    if (!response.ok || !response.body) {
      if (FINAL_STATUSES.has(response.status)) abort.abort();
      return;
    }
    failures = 0;
    const parser = createParser({ onEvent: (event) => dispatch(event.event ?? 'message', event.data) });
    const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
    for (;;) {
      const { value, done } = await reader.read();
      if (done) return;
      parser.feed(value);
    }
  };

  const run = () => {
    connect()
      .catch(() => undefined)
      .finally(() => {
        if (abort.signal.aborted) return;
        failures += 1;
        const wait = Math.min(RETRY_MAX_MS, RETRY_BASE_MS * 2 ** (failures - 1));
        retryTimer = setTimeout(run, wait);
      });
  };
  run();
  return () => {
    clearTimeout(retryTimer);
    abort.abort();
  };
}
