import { FsMediaStorage } from './fs-media-storage.js';
import type { MediaStorage } from './media-storage.js';
import type { S3MediaStorageOptions } from './s3-media-storage.js';

/** Which driver to build and its settings (`CMS_MEDIA_DRIVER`, `{CMS_DATA_DIR}/media`, `S3_*`). */
export interface MediaStorageConfig {
  driver: 'fs' | 's3';
  /** Root directory of the `fs` driver. */
  fsRoot: string;
  /** Required for the `s3` driver. */
  s3?: S3MediaStorageOptions;
}

/**
 * Builds the configured media storage driver. The S3 driver is loaded only when configured: the AWS
 * SDK took about 40% of the server's module loading at start, which the embedded default does not need.
 */
export async function createMediaStorage(config: MediaStorageConfig): Promise<MediaStorage> {
  switch (config.driver) {
    case 'fs':
      return new FsMediaStorage({ root: config.fsRoot });
    case 's3':
      if (!config.s3?.bucket) throw new Error('CMS_MEDIA_DRIVER=s3 needs S3_BUCKET (and usually S3_ENDPOINT).');
      return new (await import('./s3-media-storage.js')).S3MediaStorage(config.s3);
    default:
      throw new Error(`Unknown media driver "${String(config.driver)}": use "fs" or "s3".`);
  }
}
