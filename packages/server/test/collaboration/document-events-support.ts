/** A reader of a document's event stream (`GET /content/{id}/events`) over real HTTP, as the Studio reads it. */
import { randomUUID } from 'node:crypto';
import { SCOPES } from '@cms/core';
import { generateApiKey } from '../../src/modules/core-system/api-key-secret.js';
import type { Queryable } from '../../src/storage/db.js';
import { insertApiKey } from '../../src/storage/repositories/api-keys.repository.js';

export interface ReceivedEvent {
  event: string;
  data: any;
}

export interface DocumentEventsReader {
  status: number;
  /** The next event, waiting for it when none is there yet. */
  next(): Promise<ReceivedEvent>;
  /** The next `presence` event's editor names. */
  nextNames(): Promise<string[]>;
  /** Goes away as a closed tab does (the connection drops). */
  close(): void;
  /** The answer's body when it was not a stream (an error envelope). */
  error: any;
  /** Settles when the server ends the stream. */
  ended: Promise<void>;
}

/** Opens the stream with `key`; the routing headers name the default project's production environment. */
export async function openDocumentEvents(
  baseUrl: string,
  key: string,
  documentId: string,
  environment = 'production',
): Promise<DocumentEventsReader> {
  const abort = new AbortController();
  const response = await fetch(`${baseUrl}/api/v1/content/${documentId}/events`, {
    headers: { authorization: `Bearer ${key}`, 'x-cms-project': 'default', 'x-cms-environment': environment },
    signal: abort.signal,
  });
  const events: ReceivedEvent[] = [];
  const waiting: ((event: ReceivedEvent) => void)[] = [];
  let markEnded: () => void = () => undefined;
  const reader: DocumentEventsReader = {
    ended: new Promise((resolve) => {
      markEnded = resolve;
    }),
    status: response.status,
    error: null,
    next() {
      const event = events.shift();
      if (event) return Promise.resolve(event);
      return new Promise((resolve) => waiting.push(resolve));
    },
    async nextNames() {
      for (;;) {
        const event = await reader.next();
        if (event.event === 'presence') return event.data.editors.map((editor: { name: string }) => editor.name);
      }
    },
    close: () => abort.abort(),
  };
  if (!response.headers.get('content-type')?.startsWith('text/event-stream')) {
    reader.error = await response.json();
    return reader;
  }
  void (async () => {
    const decoder = new TextDecoder();
    let buffered = '';
    try {
      for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
        buffered += decoder.decode(chunk, { stream: true });
        let end = buffered.indexOf('\n\n');
        while (end >= 0) {
          const block = buffered.slice(0, end);
          buffered = buffered.slice(end + 2);
          end = buffered.indexOf('\n\n');
          const name = /^event: (.*)$/m.exec(block)?.[1];
          const data = /^data: (.*)$/m.exec(block)?.[1];
          if (!name || data === undefined) continue;
          const event = { event: name, data: JSON.parse(data) };
          const resolve = waiting.shift();
          if (resolve) resolve(event);
          else events.push(event);
        }
      }
      markEnded();
    } catch {
      // Aborted by close().
    }
  })();
  return reader;
}

/** A key with every scope, labelled as the person it stands for (presence shows a key's label). */
export async function insertLabelledKey(db: Queryable, label: string): Promise<string> {
  const { apiKey, prefix, secretHash } = generateApiKey('live');
  await insertApiKey(db, {
    id: randomUUID(),
    kind: 'live',
    label,
    prefix,
    secretHash,
    scopes: [...SCOPES],
    contextAllowlist: [{ project: '*', environment: '*' }],
    createdBy: null,
    expiresAt: null,
  });
  return apiKey;
}
