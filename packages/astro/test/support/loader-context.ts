/**
 * A small stand-in for the context Astro gives a loader (a Map store and meta store, identity
 * `parseData`, a stub `renderMarkdown`, a logger that keeps its lines): for loader tests without an
 * Astro build (astro-site-build.test.ts builds a real site).
 */
import type { LoaderContext } from 'astro/loaders';

export interface Entry {
  id: string;
  data: Record<string, unknown>;
  body?: string;
  digest?: string | number;
  rendered?: { html: string };
  filePath?: string;
  deferredRender?: boolean;
}

export function loaderContext(collection = 'posts') {
  const entries = new Map<string, Entry>();
  const meta = new Map<string, string>();
  const logs: string[] = [];
  const ctx = {
    collection,
    config: { integrations: [], root: new URL('file:///nonexistent/') },
    store: {
      get: (id: string) => entries.get(id),
      set: (entry: Entry) => {
        entries.set(entry.id, entry);
        return true;
      },
      keys: () => [...entries.keys()],
      delete: (id: string) => void entries.delete(id),
    },
    meta: {
      get: (key: string) => meta.get(key),
      set: (key: string, value: string) => void meta.set(key, value),
      has: (key: string) => meta.has(key),
      delete: (key: string) => void meta.delete(key),
    },
    logger: { info: (line: string) => void logs.push(line), warn: (line: string) => void logs.push(`warn: ${line}`) },
    parseData: async ({ data }: { data: Record<string, unknown> }) => data,
    renderMarkdown: async (body: string) => ({ html: `<rendered>${body}</rendered>` }),
    generateDigest: (data: unknown) => JSON.stringify(data),
  };
  return { ctx: ctx as unknown as LoaderContext, entries, meta, logs };
}
