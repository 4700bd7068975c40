import type { ModuleSurface, ServerDeps } from '../module-types.js';
import type { DomainShared } from './domain-shared.js';
import { createPublishedReadCache } from './read-cache/published-read-cache.js';
import { earlyPublishedRead, publishedReadHooks } from './read-cache/published-read-http.js';
import { contentReadsActions } from './reads/content-reads.actions.js';
import { ContentReadsService } from './reads/content-reads.service.js';
import { createPreviewAuthStrategy } from './reads/preview-auth-strategy.js';
import { previewEventsActions } from './reads/preview-events.actions.js';
import { createPreviewEventsHub } from './reads/preview-events.js';
import { createPreviewEventsService } from './reads/preview-events.service.js';
import { previewTokensActions } from './reads/preview-tokens.actions.js';
import { createPreviewTokensService } from './reads/preview-tokens.service.js';
import { searchActions } from './reads/search.actions.js';
import { createSearchService } from './reads/search.service.js';

/** The reads whose published answers are cached. */
/**
 * The content reads area (get, list, overview, variants, resolve, search, preview tokens) of `domain.content`:
 * its actions and the `Authorization: Preview <token>` strategy.
 */
export async function setupContentReadsArea(deps: ServerDeps, shared: DomainShared): Promise<ModuleSurface> {
  const reads = new ContentReadsService({ db: deps.db, schemas: shared.schemas });
  const search = createSearchService({ db: deps.db, schemas: shared.schemas });
  const previews = createPreviewTokensService({
    db: deps.db,
    secret: deps.config.previewTokenSecret,
    clock: deps.clock,
    ttlSeconds: deps.config.previewTokenTtlSeconds,
  });
  const previewHub = createPreviewEventsHub(deps.bus);
  const previewEvents = createPreviewEventsService({
    db: deps.db,
    targets: deps.targets,
    hub: previewHub,
    secret: deps.config.previewTokenSecret,
    clock: deps.clock,
    publicUrl: deps.config.publicUrl,
  });
  const cache = createPublishedReadCache({ bus: deps.bus, maxBytes: deps.config.readCacheBytes });
  const httpCache = {
    maxAgeSeconds: deps.config.httpCacheMaxAgeSeconds,
    staleWhileRevalidateSeconds: deps.config.httpCacheStaleWhileRevalidateSeconds,
  };
  const cacheHooks = publishedReadHooks(cache, httpCache);
  // Published reads answer from memory, with ETag/304 (read-cache/): the routes whose contract says they
  // answer conditional requests (the content get and list routes).
  const contentReads = contentReadsActions(reads).map((action) =>
    action.response.conditional ? { ...action, setupScope: cacheHooks } : action,
  );
  return {
    actions: [
      ...contentReads,
      ...searchActions(search),
      ...previewTokensActions(previews),
      ...previewEventsActions(previewEvents, previewHub),
    ],
    authStrategies: [createPreviewAuthStrategy({ secret: deps.config.previewTokenSecret, clock: deps.clock })],
    // A hit to an API key is answered before routing, when memory can decide every access step.
    earlyReads: [earlyPublishedRead(cache, httpCache)],
    closing: () => previewHub.closeAll(),
  };
}
