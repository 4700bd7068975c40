/**
 * One load of a collection: which documents to fetch (load-state.ts keeps what the last load saw) and
 * how each becomes an entry: `data` parsed by the collection's schema, Markdown rendered, an MDX body
 * written for the site's MDX integration. Entries no longer listed leave the store, their MDX file too.
 */
import { listReferenceFields, type SchemaType } from '@cms/core';
import type { CmsClient, Document } from '@cms/sdk';
import { renderMarkdownWithSourceLines } from '@cms/sdk/markdown';
import type { LoaderContext } from 'astro/loaders';
import { entryData, entryId, resolvedReferences } from './entry-data.js';
import { type CollectionQuery, fetchChanges, type LoadMode, readState, saveState, sourceDigest } from './load-state.js';
import type { CmsLoaderOptions } from './loader.js';
import { DEFAULT_MDX_DIRECTORY, hasMdxIntegration, MdxBodies } from './mdx-bodies.js';
import { clientFor, loaderError, resolveTarget } from './settings.js';

/** What one load did, logged and returned for tests. */
export interface LoadReport {
  mode: LoadMode;
  /** Distinct documents whose content came over the wire. */
  fetched: number;
  /** Entries added or changed. */
  changed: number;
  /** Entries in the collection after the load. */
  total: number;
}

/** The CMS schema as the load uses it: the collection's type and every type (for reference targets). */
export interface LoadSchema {
  type: SchemaType;
  all: SchemaType[];
}

/** Writes documents into the store as entries. */
class EntryWriter {
  readonly fetched = new Set<string>();
  changed = 0;
  mdxUnrendered = 0;
  private readonly locales = new Map<string, string>();
  private readonly mdx: MdxBodies | null;

  constructor(
    private readonly ctx: LoaderContext,
    private readonly options: CmsLoaderOptions,
    private readonly cms: CmsClient,
    private readonly localizedTypes: ReadonlySet<string>,
    readonly entries: Record<string, string>,
  ) {
    this.mdx = hasMdxIntegration(ctx) ? new MdxBodies(ctx, options.mdxDirectory ?? DEFAULT_MDX_DIRECTORY) : null;
  }

  /** The locales of referenced documents of localized types (their entry ids carry it). */
  private async learnLocales(doc: Document): Promise<void> {
    for (const ref of resolvedReferences(doc.frontmatter)) {
      if (!this.localizedTypes.has(ref.type) || this.locales.has(ref.documentId)) continue;
      const target = await this.cms.content.get(ref.documentId, this.options.draft ? { draft: true } : {});
      this.locales.set(ref.documentId, target.locale);
    }
  }

  async put(doc: Document): Promise<void> {
    this.fetched.add(doc.documentId);
    const id = entryId(doc);
    const previous = this.entries[doc.documentId];
    if (previous !== undefined && previous !== id) await this.remove(previous);
    this.entries[doc.documentId] = id;
    await this.learnLocales(doc);
    const data = entryData(doc, (documentId) => this.locales.get(documentId));
    const digest = this.ctx.generateDigest({ data, body: doc.body, format: doc.format });
    const stored = this.ctx.store.get(id);
    if (stored?.digest === digest && (doc.format !== 'mdx' || !this.mdx || this.mdx.has(id))) return;
    const parsed = await this.ctx.parseData({ id, data });
    this.changed++;
    if (doc.format === 'mdx') {
      if (!this.mdx) {
        this.mdxUnrendered++;
        this.ctx.store.set({ id, data: parsed, body: doc.body, digest });
        return;
      }
      const filePath = await this.mdx.write(id, doc.body);
      this.ctx.store.set({ id, data: parsed, body: doc.body, digest, filePath, deferredRender: true });
      return;
    }
    const rendered = this.options.sourceLines
      ? { html: renderMarkdownWithSourceLines(doc.body, this.options.rawHtml ? { html: 'keep' } : {}) }
      : await this.ctx.renderMarkdown(doc.body);
    this.ctx.store.set({ id, data: parsed, body: doc.body, digest, rendered });
  }

  async drop(documentId: string): Promise<void> {
    const id = this.entries[documentId];
    if (id === undefined) return;
    delete this.entries[documentId];
    this.changed++;
    await this.remove(id);
  }

  async remove(id: string): Promise<void> {
    this.ctx.store.delete(id);
    await this.mdx?.remove(id);
  }
}

/** Loads the collection; errors name the collection, the type and the server. */
export async function loadCollection(
  ctx: LoaderContext,
  options: CmsLoaderOptions,
  schema: LoadSchema | null,
  where: string,
): Promise<LoadReport> {
  const target = resolveTarget(options, where);
  const cms = clientFor(target, options);
  const resolve = schema ? listReferenceFields(schema.type).map((field) => field.path) : [];
  const query: CollectionQuery = {
    type: options.type,
    ...(options.locale ? { locale: options.locale } : {}),
    ...(options.draft ? { draft: true as const } : {}),
    ...(resolve.length > 0 ? { resolve } : {}),
  };
  const source = await sourceDigest([target.serverUrl, target.project, target.environment, options, resolve]);
  const state = readState(ctx, source);
  const localized = new Set((schema?.all ?? []).filter((type) => type.localized).map((type) => type.name));
  const writer = new EntryWriter(ctx, options, cms, localized, { ...(state?.entries ?? {}) });
  let mode: LoadMode;
  let cursor: string;
  try {
    ({ mode, cursor } = await fetchChanges(cms, query, state, writer));
  } catch (error) {
    throw loaderError(where, target, 'content', error);
  }
  if (mode === 'full') {
    const keep = new Set(Object.values(writer.entries));
    for (const id of ctx.store.keys()) if (!keep.has(id)) await writer.remove(id);
  }
  if (writer.mdxUnrendered > 0)
    ctx.logger.warn(
      `${where}: ${writer.mdxUnrendered} MDX document(s) have no rendered content: add @astrojs/mdx to the site's integrations (docs/frameworks.md "MDX").`,
    );
  saveState(ctx, { source, cursor, entries: writer.entries });
  return { mode, fetched: writer.fetched.size, changed: writer.changed, total: Object.keys(writer.entries).length };
}
