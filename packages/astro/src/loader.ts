/**
 * `cmsLoader()`: an Astro content-collection loader (build time) that reads one content type from the
 * CMS. Incremental: the loader keeps, in the collection's `meta` store, the newest `updatedAt` it has
 * seen and which document each entry came from; the next build asks for the newest document and the
 * collection's total (one document) and, when something changed, only the documents updated since
 * (`updatedSince`). A total that does not add up (a document unpublished or deleted) reloads the
 * collection. Markdown bodies are rendered with Astro's `renderMarkdown`; MDX bodies are kept as
 * `body` (docs/frameworks.md).
 * @example
 * // src/content.config.ts
 * export const collections = { posts: defineCollection({ loader: cmsLoader({ type: 'post' }) }) };
 */
import { createClient, type Document } from '@cms/sdk';
import { renderMarkdownWithSourceLines } from '@cms/sdk/markdown';
import type { Loader, LoaderContext } from 'astro/loaders';

/** What `cmsLoader` takes; connection options default to the `CMS_*` environment variables. */
export interface CmsLoaderOptions {
  /** The content type the collection holds. */
  type: string;
  /** Only documents of this locale (localized types). Default: every locale. */
  locale?: string;
  /** Read drafts instead of published content; the key needs `content:read:draft`. */
  draft?: boolean;
  /** Default `CMS_SERVER_URL`. */
  serverUrl?: string;
  /** Default `CMS_API_KEY`. */
  apiKey?: string;
  /** Default `CMS_PROJECT`, else `default`. */
  project?: string;
  /** Default `CMS_ENVIRONMENT`, else `production`. */
  environment?: string;
  /** The fetch to use (tests, proxies). */
  fetch?: typeof fetch;
  /**
   * Render Markdown with `data-cms-source="<line>"` on block elements (`@cms/sdk/markdown`), for the
   * Studio's click-to-edit in the live preview (docs/live-preview.md). Default false: Astro's
   * `renderMarkdown`, with the site's Markdown settings.
   */
  sourceLines?: boolean;
  /**
   * With `sourceLines`: keep raw HTML written in Markdown bodies, as written (bodies you trust).
   * Default false: the CMS's pipeline leaves it out and sanitises the rest (`@cms/sdk/markdown`).
   */
  rawHtml?: boolean;
}

/** What the loader remembers between builds (the `meta` store, key `state`). */
interface LoaderState {
  /**
   * SHA-256 of what the entries were loaded from (server, project, environment, options): another
   * value means a full load. A digest, never the options themselves: Astro writes the meta store to
   * disk (and build caches travel), and the options may hold the API key.
   */
  source: string;
  /** The newest `updatedAt` seen. */
  watermark: string;
  /** Entry id by document id. */
  entries: Record<string, string>;
}

/** What one load did, logged and returned for tests. */
export interface LoadReport {
  mode: 'full' | 'incremental' | 'unchanged';
  /** Distinct documents whose content came over the wire. */
  fetched: number;
  /** Entries added or changed. */
  changed: number;
  /** Entries in the collection after the load. */
  total: number;
}

const PAGE = 100;

function env(name: string): string | undefined {
  const value = typeof process === 'undefined' ? undefined : process.env[name];
  return value === '' ? undefined : value;
}

function settings(options: CmsLoaderOptions) {
  const serverUrl = options.serverUrl ?? env('CMS_SERVER_URL');
  if (!serverUrl) throw new Error('cmsLoader: set serverUrl or CMS_SERVER_URL (such as http://localhost:3000)');
  return {
    serverUrl,
    apiKey: options.apiKey ?? env('CMS_API_KEY'),
    project: options.project ?? env('CMS_PROJECT') ?? 'default',
    environment: options.environment ?? env('CMS_ENVIRONMENT') ?? 'production',
  };
}

/** The locale documents of a type that is not localized carry (docs/api.md). */
const UNLOCALIZED = '__cms_default__';

/**
 * The entry id of a document: its path, prefixed by its locale when its type is localized (told by
 * the locale, so a key without `schema:read` works).
 */
export function entryId(doc: Pick<Document, 'path' | 'locale'>): string {
  return doc.locale === UNLOCALIZED ? doc.path : `${doc.locale}/${doc.path}`;
}

/** The hex SHA-256 of a text (Web Crypto: Node, Deno and Bun alike). */
async function sha256(text: string): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(text));
  return Array.from(new Uint8Array(digest), (byte) => byte.toString(16).padStart(2, '0')).join('');
}

function readState(ctx: LoaderContext, source: string): LoaderState | null {
  const raw = ctx.meta.get('state');
  if (!raw) return null;
  try {
    const state = JSON.parse(raw) as LoaderState;
    return state.source === source ? state : null;
  } catch {
    return null;
  }
}

/** Creates the loader of one collection. */
export function cmsLoader(options: CmsLoaderOptions): Loader & { lastReport?: LoadReport } {
  const loader: Loader & { lastReport?: LoadReport } = {
    name: '@cms/astro',
    async load(ctx) {
      loader.lastReport = await load(ctx, options);
      const { mode, fetched, changed, total } = loader.lastReport;
      ctx.logger.info(
        `${options.type}: ${mode} load, ${fetched} document(s) fetched, ${changed} changed, ${total} in all`,
      );
    },
  };
  return loader;
}

async function load(ctx: LoaderContext, options: CmsLoaderOptions): Promise<LoadReport> {
  const target = settings(options);
  const cms = createClient({
    baseUrl: target.serverUrl,
    ...(target.apiKey ? { apiKey: target.apiKey } : {}),
    project: target.project,
    environment: target.environment,
    ...(options.fetch ? { fetch: options.fetch } : {}),
  });
  const source = await sha256(JSON.stringify([target.serverUrl, target.project, target.environment, options]));
  const query = {
    type: options.type,
    ...(options.locale ? { locale: options.locale } : {}),
    ...(options.draft ? { draft: true } : {}),
  };
  const state = readState(ctx, source);
  const fetched = new Set<string>();
  let changed = 0;
  const entries: Record<string, string> = { ...(state?.entries ?? {}) };
  let watermark = state?.watermark ?? '';

  const put = async (doc: Document) => {
    fetched.add(doc.documentId);
    if (doc.updatedAt > watermark) watermark = doc.updatedAt;
    const id = entryId(doc);
    const previous = entries[doc.documentId];
    if (previous !== undefined && previous !== id) ctx.store.delete(previous);
    entries[doc.documentId] = id;
    const data = {
      ...doc.frontmatter,
      documentId: doc.documentId,
      locale: doc.locale,
      version: doc.version,
      updatedAt: doc.updatedAt,
    };
    const digest = ctx.generateDigest({ data, body: doc.body, format: doc.format });
    if (ctx.store.get(id)?.digest === digest) return;
    const parsed = await ctx.parseData({ id, data });
    const rendered =
      doc.format !== 'md'
        ? undefined
        : options.sourceLines
          ? { html: renderMarkdownWithSourceLines(doc.body, options.rawHtml ? { html: 'keep' } : {}) }
          : await ctx.renderMarkdown(doc.body);
    ctx.store.set({ id, data: parsed, body: doc.body, digest, ...(rendered ? { rendered } : {}) });
    changed++;
  };

  const save = (mode: LoadReport['mode']): LoadReport => {
    ctx.meta.set('state', JSON.stringify({ source, watermark, entries } satisfies LoaderState));
    return { mode, fetched: fetched.size, changed, total: Object.keys(entries).length };
  };

  if (state) {
    // The newest document and the total: one document over the wire.
    const newest = await cms.content.list({ ...query, sort: 'updatedAt', order: 'desc', limit: 1 });
    const top = newest.data[0];
    if (top) fetched.add(top.documentId);
    const known = Object.keys(entries).length;
    if (newest.pagination.total === known && (!top || top.updatedAt <= watermark)) return save('unchanged');
    const updated: Document[] = [];
    if (top && top.updatedAt > watermark) {
      for await (const doc of cms.content.iterate({
        ...query,
        updatedSince: watermark,
        sort: 'updatedAt',
        order: 'asc',
        limit: PAGE,
      }))
        updated.push(doc);
    }
    const added = updated.filter((doc) => entries[doc.documentId] === undefined).length;
    if (known + added === newest.pagination.total) {
      for (const doc of updated) await put(doc);
      return save('incremental');
    }
  }

  // A first load, other options, or a document gone: everything, and entries no longer listed leave.
  for (const key of Object.keys(entries)) delete entries[key];
  watermark = '';
  for await (const doc of cms.content.iterate({ ...query, sort: 'updatedAt', order: 'asc', limit: PAGE }))
    await put(doc);
  const keep = new Set(Object.values(entries));
  for (const id of ctx.store.keys()) if (!keep.has(id)) ctx.store.delete(id);
  return save('full');
}
