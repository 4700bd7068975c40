import { FsMediaStorage } from './fs-media-storage.js';
import type { MediaStorage } from './media-storage.js';
import { S3MediaStorage, type S3MediaStorageOptions } from './s3-media-storage.js';

/** Which driver to build and its settings (`CMS_MEDIA_DRIVER`, `{CMS_DATA_DIR}/media`, `S3_*`). */
export interface MediaStorageConfig {
  driver: 'fs' | 's3';
  /** Root directory of the `fs` driver. */
  fsRoot: string;
  /** Required for the `s3` driver. */
  s3?: S3MediaStorageOptions;
}

/** Builds the configured media storage driver. */
export function createMediaStorage(config: MediaStorageConfig): MediaStorage {
  switch (config.driver) {
    case 'fs':
      return new FsMediaStorage({ root: config.fsRoot });
    case 's3':
      if (!config.s3?.bucket) throw new Error('CMS_MEDIA_DRIVER=s3 needs S3_BUCKET (and usually S3_ENDPOINT).');
      return new S3MediaStorage(config.s3);
    default:
      throw new Error(`Unknown media driver "${String(config.driver)}": use "fs" or "s3".`);
  }
}
