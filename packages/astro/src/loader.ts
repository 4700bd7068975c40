/**
 * `cmsLoader()`: an Astro content-collection loader that reads one content type from the CMS.
 * - Schema: `createSchema` builds the collection's Zod schema and the TypeScript of `data` from the CMS
 *   type (collection-schema.ts), so `data` is typed and checked; `schema: false` skips it.
 * - References: reads resolve every reference field, and `data` holds the referenced entry's id (its
 *   path), or `{ collection, id }` for the fields `references` maps to a collection, so Astro's
 *   `reference()` and `getEntry()` work (entry-data.ts).
 * - Bodies: Markdown rendered with Astro's `renderMarkdown` (or with source lines for click-to-edit);
 *   MDX rendered by the site's own MDX integration from a file per body (mdx-bodies.ts).
 * - Incremental: load-state.ts decides what to fetch between builds.
 * - `astro dev`: looks for published changes every `devPollMs` and updates the store, so the page shows
 *   a published change without a restart.
 * Errors name the collection, the content type and the server (settings.ts).
 * @example
 * // src/content.config.ts
 * export const collections = {
 *   authors: defineCollection({ loader: cmsLoader({ type: 'author' }) }),
 *   posts: defineCollection({ loader: cmsLoader({ type: 'post', references: { author: 'authors' } }) }),
 * };
 */
import { listReferenceFields, type SchemaType } from '@cms/core';
import type { Loader, LoaderContext } from 'astro/loaders';
import { collectionSchema, type ReferenceCollections, unknownReferencePaths } from './collection-schema.js';
import { type LoadReport, loadCollection } from './load-collection.js';
import { type ConnectionOptions, clientFor, isRefusal, loaderError, resolveTarget } from './settings.js';

export type { LoadReport } from './load-collection.js';

/** What `cmsLoader` takes; connection options default to the `CMS_*` environment variables. */
export interface CmsLoaderOptions extends ConnectionOptions {
  /** The content type the collection holds. */
  type: string;
  /** Only documents of this locale (localized types). Default: every locale. */
  locale?: string;
  /** Read drafts instead of published content; the key needs `content:read:draft`. */
  draft?: boolean;
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
  /**
   * Reference fields (paths as `resolve` names them: `author`, `seo.author`) whose documents are the
   * entries of another collection: `{ author: 'authors' }`. Their `data` is `{ collection, id }`, as
   * Astro's `reference('authors')` gives, for `getEntry()`. Other references hold the entry id.
   */
  references?: ReferenceCollections;
  /** `false`: no schema from the CMS (`data` untyped; the key then needs no `schema:read`). */
  schema?: false;
  /** Folder of the MDX bodies' files, relative to the site's root; default `.astro/cms-mdx`. */
  mdxDirectory?: string;
  /** `astro dev` only: how often to look for published changes, in ms; 0 never. Default 2000. */
  devPollMs?: number;
}

/** Default interval of the `astro dev` look for changes. */
const DEFAULT_DEV_POLL_MS = 2000;

/** The dev look for changes of each collection: one at a time, the newest loader's. */
const devWatches = new Map<string, ReturnType<typeof setInterval>>();

/** Reads the type's schema; an error names where and which scope is missing. */
async function readType(options: CmsLoaderOptions, where: string): Promise<{ type: SchemaType; all: SchemaType[] }> {
  const target = resolveTarget(options, where);
  let types: SchemaType[];
  try {
    types = (await clientFor(target, options).schema.get()).types as SchemaType[];
  } catch (error) {
    throw loaderError(where, target, 'schema.list', error);
  }
  const type = types.find((candidate) => candidate.name === options.type);
  if (!type)
    throw new Error(
      `${where}: the server ${target.serverUrl} has no content type "${options.type}" (it has ${types.map((t) => t.name).join(', ') || 'none'}): check the loader's type or run \`cms schema sync\`.`,
    );
  const unknown = unknownReferencePaths(type, options.references ?? {});
  if (unknown.length > 0) {
    const fields = listReferenceFields(type).map((field) => field.path);
    throw new Error(
      `${where}: references names ${unknown.join(', ')}, which ${unknown.length === 1 ? 'is' : 'are'} no reference field of "${type.name}" (its reference fields: ${fields.join(', ') || 'none'}).`,
    );
  }
  return { type, all: types };
}

/** Creates the loader of one collection. */
export function cmsLoader(options: CmsLoaderOptions): Loader & { lastReport?: LoadReport } {
  const run = async (ctx: LoaderContext, quiet: boolean) => {
    const where = `cmsLoader(${ctx.collection}, type "${options.type}")`;
    const schema =
      options.schema === false
        ? null
        : await readType(options, where).catch((error: unknown) => {
            // A key without schema:read still loads; createSchema (astro sync, build) says so as an error.
            if (!isRefusal(error)) throw error;
            ctx.logger.warn(`${(error as Error).message} References keep document ids.`);
            return null;
          });
    const report = await loadCollection(ctx, options, schema, where);
    loader.lastReport = report;
    if (quiet && report.mode === 'unchanged') return;
    const { mode, fetched, changed, total } = report;
    ctx.logger.info(
      `${options.type}: ${mode} load, ${fetched} document(s) fetched, ${changed} changed, ${total} in all`,
    );
  };
  const loader: Loader & { lastReport?: LoadReport } = {
    name: '@cms/astro',
    async load(ctx) {
      await run(ctx, false);
      watchInDev(ctx, () => run(ctx, true), options.devPollMs ?? DEFAULT_DEV_POLL_MS);
    },
    ...(options.schema === false
      ? {}
      : {
          async createSchema() {
            const { type } = await readType(options, `cmsLoader(type "${options.type}")`);
            return collectionSchema(type, options.references ?? {});
          },
        }),
  };
  return loader;
}

/** Under `astro dev` (a watcher is given), loads again every `intervalMs`, one load at a time. */
function watchInDev(ctx: LoaderContext, again: () => Promise<void>, intervalMs: number): void {
  if (!ctx.watcher || intervalMs <= 0) return;
  clearInterval(devWatches.get(ctx.collection));
  let busy = false;
  const timer = setInterval(() => {
    if (busy) return;
    busy = true;
    again()
      .catch((error: unknown) => ctx.logger.warn(error instanceof Error ? error.message : String(error)))
      .finally(() => {
        busy = false;
      });
  }, intervalMs);
  timer.unref?.();
  devWatches.set(ctx.collection, timer);
  ctx.watcher.on('close', () => clearInterval(timer));
}
