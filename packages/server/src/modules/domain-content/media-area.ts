import { join } from 'node:path';
import type { ServerConfig } from '../../config.js';
import { createMediaStorage, type MediaStorageConfig } from '../../media/create-media-storage.js';
import { createTransformQueue } from '../../media/transform-queue.js';
import type { ModuleSurface, ServerDeps } from '../module-types.js';
import type { DomainShared } from './domain-shared.js';
import { mediaActions } from './media/media.actions.js';
import { MediaService } from './media/media.service.js';
import { mediaFileActions } from './media/media-file.actions.js';
import { mediaImageActions } from './media/media-image.actions.js';
import { createMediaImageService } from './media/media-image.service.js';
import { createMediaPurgeWorker } from './media/media-purge-worker.js';

/**
 * The media area of `domain.content`: uploads, listing, edits, deletion, the file urls, image
 * transforms, and the purge
 * worker, which deletes the objects of deleted assets and environments from `start()` (once the
 * server listens) to `stop()`.
 */
export async function setupMediaArea(deps: ServerDeps, shared: DomainShared): Promise<ModuleSurface> {
  const { config } = deps;
  const storage = await createMediaStorage(mediaStorageConfig(config));
  const purge = createMediaPurgeWorker({
    db: deps.db,
    storage,
    log: deps.log.child({ area: 'media' }),
    pollIntervalMs: config.mediaPurgeIntervalSeconds * 1000,
  });
  const media = new MediaService({
    db: deps.db,
    storage,
    purge,
    outbox: shared.outbox,
    publicUrl: config.publicUrl,
    maxUploadBytes: config.maxUploadBytes,
    log: deps.log,
  });
  const images = createMediaImageService({
    db: deps.db,
    storage,
    queue: createTransformQueue({
      concurrency: config.imageTransformConcurrency,
      maxWaiting: config.imageTransformQueue,
    }),
    log: deps.log.child({ area: 'media' }),
  });
  return {
    actions: [
      ...mediaActions({ media, maxUploadBytes: config.maxUploadBytes }),
      ...mediaFileActions({ media }),
      ...mediaImageActions({ images }),
    ],
    start: () => purge.start(),
    stop: async () => {
      await purge.stop();
      await storage.close();
    },
  };
}

/** The driver settings (decisions.md §1): `CMS_MEDIA_DRIVER`, `S3_*`, files under `{CMS_DATA_DIR}/media`. */
export function mediaStorageConfig(config: ServerConfig): MediaStorageConfig {
  const { s3 } = config;
  return {
    driver: config.mediaDriver,
    fsRoot: join(config.dataDir, 'media'),
    ...(config.mediaDriver === 's3' && s3.bucket
      ? {
          s3: {
            bucket: s3.bucket,
            region: s3.region,
            forcePathStyle: s3.forcePathStyle,
            ...(s3.endpoint ? { endpoint: s3.endpoint } : {}),
            ...(s3.accessKeyId ? { accessKeyId: s3.accessKeyId } : {}),
            ...(s3.secretAccessKey ? { secretAccessKey: s3.secretAccessKey } : {}),
          },
        }
      : {}),
  };
}
