/**
 * `cmsLiveLoader()`: a loader for Astro's live content collections (`src/live.config.ts`), read at
 * request time by server-rendered pages: `getLiveCollection('posts', { slug })`,
 * `getLiveEntry('posts', 'hello-world')`, and for a preview page `getLiveEntry('posts', { previewToken })`
 * with the token of the Studio's preview address (the draft it was issued for; a token of another project
 * or environment is refused). Entries are shaped as `cmsLoader`'s (entry-data.ts), Markdown rendered by
 * the CMS's pipeline (`@cms/sdk/markdown`; MDX has no `rendered` here, as Astro compiles MDX at build
 * only), and carry cache hints: each document's tag and its update time. Errors are `CmsLiveError`s
 * naming the collection and the server.
 * @example
 * // src/live.config.ts
 * export const collections = { livePosts: defineLiveCollection({ loader: cmsLiveLoader({ type: 'post' }) }) };
 */
import { listReferenceFields, type SchemaType } from '@cms/core';
import { type CmsClient, type Document, documentTag } from '@cms/sdk';
import { renderMarkdown, renderMarkdownWithSourceLines } from '@cms/sdk/markdown';
import { createPreviewClient } from '@cms/sdk/preview';
import type { LiveLoader } from 'astro/loaders';
import { entryData, entryId, UNLOCALIZED } from './entry-data.js';
import { type ConnectionOptions, clientFor, loaderError, resolveTarget, type Target } from './settings.js';

/** What `cmsLiveLoader` takes; connection options default to the `CMS_*` environment variables. */
export interface CmsLiveLoaderOptions extends ConnectionOptions {
  type: string;
  /** Render Markdown with `data-cms-source` lines, for click-to-edit in the Studio's live preview. */
  sourceLines?: boolean;
  /** Keep raw HTML written in Markdown bodies (bodies you trust); default sanitised. */
  rawHtml?: boolean;
  /** Reference paths to resolve; default every reference field of the type (needs `schema:read`). */
  resolve?: readonly string[];
}

/** `getLiveEntry(collection, filter)`: an entry id, a document id, or a preview token. */
export type CmsLiveEntryFilter =
  | { id: string; draft?: boolean }
  | { documentId: string; draft?: boolean }
  | { previewToken: string };

/** `getLiveCollection(collection, filter)`. */
export interface CmsLiveCollectionFilter {
  locale?: string;
  slug?: string;
  limit?: number;
  offset?: number;
  draft?: boolean;
}

/** A live loader's failure, naming the collection and the server. */
export class CmsLiveError extends Error {
  override readonly name = 'CmsLiveError';
}

type Data = Record<string, unknown>;

function render(doc: Document, options: CmsLiveLoaderOptions): { html: string } | undefined {
  if (doc.format !== 'md') return undefined;
  const html = options.rawHtml ? ({ html: 'keep' } as const) : {};
  return { html: options.sourceLines ? renderMarkdownWithSourceLines(doc.body, html) : renderMarkdown(doc.body, html) };
}

function toEntry(doc: Document, options: CmsLiveLoaderOptions) {
  // Resolved references become entry ids; a localized target keeps its path only (its locale is not in the answer).
  const data = entryData(doc, () => UNLOCALIZED);
  const rendered = render(doc, options);
  return {
    id: entryId(doc),
    data,
    ...(rendered ? { rendered } : {}),
    cacheHint: { tags: [documentTag(doc.documentId)], lastModified: new Date(doc.updatedAt) },
  };
}

/** The entry id's path and locale: `fr/hello` for a localized type, `hello` otherwise. */
async function byEntryId(cms: CmsClient, type: string, id: string, draft: boolean): Promise<Document | undefined> {
  const query = { type, path: id, limit: 1, ...(draft ? { draft: true } : {}) };
  const plain = (await cms.content.list(query)).data[0];
  if (plain || !id.includes('/')) return plain;
  const [locale, ...rest] = id.split('/');
  return (await cms.content.list({ ...query, path: rest.join('/'), locale })).data[0];
}

/** Creates the live loader of one collection. */
export function cmsLiveLoader(
  options: CmsLiveLoaderOptions,
): LiveLoader<Data, CmsLiveEntryFilter, CmsLiveCollectionFilter, CmsLiveError> {
  let target: Target | undefined;
  let resolvePaths: Promise<readonly string[]> | undefined;
  const setup = (collection: string) => {
    const where = `cmsLiveLoader(${collection}, type "${options.type}")`;
    target ??= resolveTarget(options, where);
    const cms = clientFor(target, options);
    resolvePaths ??= options.resolve
      ? Promise.resolve(options.resolve)
      : cms.schema.get().then(
          (schema) => {
            const type = schema.types.find((candidate) => candidate.name === options.type);
            return type ? listReferenceFields(type as SchemaType).map((field) => field.path) : [];
          },
          () => [],
        );
    return { where, target, cms };
  };
  const failure = (where: string, at: Target, error: unknown) =>
    new CmsLiveError(loaderError(where, at, 'content', error).message, { cause: error });

  return {
    name: '@cms/astro/live',
    async loadCollection({ collection, filter }) {
      const { where, target: at, cms } = setup(collection);
      try {
        const resolve = await resolvePaths;
        const page = await cms.content.list({
          type: options.type,
          ...(filter?.locale ? { locale: filter.locale } : {}),
          ...(filter?.slug ? { slug: filter.slug } : {}),
          ...(filter?.draft ? { draft: true } : {}),
          limit: filter?.limit ?? 100,
          offset: filter?.offset ?? 0,
          ...(resolve && resolve.length > 0 ? { resolve } : {}),
        });
        return { entries: page.data.map((doc) => toEntry(doc, options)) };
      } catch (error) {
        return { error: failure(where, at, error) };
      }
    },
    async loadEntry({ collection, filter }) {
      const { where, target: at, cms } = setup(collection);
      try {
        const resolve = [...((await resolvePaths) ?? [])];
        if ('previewToken' in filter) {
          const preview = createPreviewClient({ baseUrl: at.serverUrl, token: filter.previewToken });
          const { project, environment } = preview.claims;
          if (project !== at.project || environment !== at.environment)
            return {
              error: new CmsLiveError(
                `${where}: the preview token is for project "${project}", environment "${environment}"; this site reads project "${at.project}", environment "${at.environment}".`,
              ),
            };
          return toEntry(await preview.get({ resolve }), options);
        }
        const draft = filter.draft === true;
        const doc =
          'documentId' in filter
            ? await cms.content.get(filter.documentId, { ...(draft ? { draft: true } : {}), resolve })
            : await byEntryId(cms, options.type, filter.id, draft);
        return doc ? toEntry(doc, options) : undefined;
      } catch (error) {
        if (error instanceof Error && 'code' in error && error.code === 'NOT_FOUND') return undefined;
        return { error: failure(where, at, error) };
      }
    },
  };
}
