import { randomUUID } from 'node:crypto';
import type { Readable } from 'node:stream';
import {
  type ActionInput,
  type ActionMethod,
  type ActionResult,
  CmsError,
  isCmsError,
  type MediaAsset,
  type mediaDeleteRoute,
  type mediaGetRoute,
  type mediaListRoute,
  type mediaUpdateRoute,
  notFound,
} from '@cms/core';
import type { FastifyBaseLogger } from 'fastify';
import type { EnvironmentContext, Target } from '../../../http/request-context.js';
import { readImageSize } from '../../../media/image-transform.js';
import {
  detectMimeType,
  MIME_SNIFF_BYTES,
  mediaCategory,
  peekStream,
  sanitizeFilename,
} from '../../../media/media-metadata.js';
import type { ByteRange, MediaObject, MediaObjectInfo, MediaStorage } from '../../../media/media-storage.js';
import { type Db, withTransaction } from '../../../storage/db.js';
import {
  deleteMedia,
  findMedia,
  findMediaByFile,
  findProjectMediaImageMaxBytes,
  insertMedia,
  listMedia,
  type MediaRow,
  updateMedia,
} from '../../../storage/repositories/media.repository.js';
import { listMediaVariantKeys } from '../../../storage/repositories/media-variants.repository.js';
import { MEDIA_IMAGE_LIMIT_SETTING, mediaImageLimitOf } from '../../../tenancy/project-settings.js';
import type { Outbox } from '../outbox.js';
import { mediaFileUrl, toMediaAsset } from './media-asset.js';
import type { MediaPurgeWorker } from './media-purge-worker.js';
import { toMediaListArgs } from './media-query.js';

/** An uploaded file as the HTTP layer hands it over: its name and its bytes as they arrive. */
export interface MediaUploadSource {
  /** The file name as the client sent it; sanitised here, kept for display. */
  filename: string;
  body: Readable;
  /** Resolves once the request holds nothing after the file; INVALID_INPUT when it does. */
  assertNoMoreParts(): Promise<void>;
}

/** What a file url names (docs/api.md "Media": file urls). */
export interface MediaFileRef {
  projectId: string;
  environmentId: string;
  mediaId: string;
  storageName: string;
}

export interface MediaServiceDeps {
  db: Db;
  storage: MediaStorage;
  /** Deletes the objects of deleted rows, at once or later from the purge queue. */
  purge: Pick<MediaPurgeWorker, 'purgeNow'>;
  outbox: Outbox;
  publicUrl: string;
  /** `CMS_MAX_UPLOAD_BYTES`: the limit of every upload. */
  maxUploadBytes: number;
  log: FastifyBaseLogger;
}

/** Bytes of a stored image read for its pixel size: every common format states it well before this. */
const IMAGE_HEADER_BYTES = 512 * 1024;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

type List = typeof mediaListRoute;
type Get = typeof mediaGetRoute;
type Update = typeof mediaUpdateRoute;
type Delete = typeof mediaDeleteRoute;

/** The routes this service answers directly, each method declared against its route. */
interface MediaRoutes {
  list: ActionMethod<List, EnvironmentContext>;
  get: ActionMethod<Get, EnvironmentContext>;
  update: ActionMethod<Update, EnvironmentContext>;
  delete: ActionMethod<Delete, EnvironmentContext>;
}

/**
 * Media rules: upload, list, get, update, delete, and the lookups behind file urls. Upload keeps
 * its own signature: its body is a stream the handler opens from the request.
 */
export class MediaService implements MediaRoutes {
  constructor(private readonly deps: MediaServiceDeps) {}

  /**
   * Streams the file to storage under a new id, then records the row and `media.uploaded` in one
   * transaction. The type comes from the content, never the client. On any failure no row and no
   * object are left behind.
   */
  async upload(ctx: EnvironmentContext, source: MediaUploadSource): Promise<MediaAsset> {
    const { db, storage, outbox, publicUrl } = this.deps;
    const { target } = ctx;
    const id = randomUUID();
    const { storageName, displayName } = sanitizeFilename(source.filename);
    const storageKey = `${target.projectId}/${target.environmentId}/${id}/${storageName}`;
    const imageLimit = await this.imageLimitOf(target.projectId);

    const { head, stream } = await peekStream(source.body, MIME_SNIFF_BYTES);
    const mimeType = await detectMimeType(head, storageName);
    const category = mediaCategory(mimeType, storageName);
    const limitedAsImage = category === 'image' && imageLimit !== null && imageLimit < this.deps.maxUploadBytes;
    const maxBytes = limitedAsImage ? imageLimit : this.deps.maxUploadBytes;
    let sizeBytes: number;
    try {
      ({ sizeBytes } = await storage.put(storageKey, stream, { contentType: mimeType, maxBytes }));
    } catch (error: unknown) {
      stream.destroy();
      if (limitedAsImage && isCmsError(error) && error.code === 'PAYLOAD_TOO_LARGE') {
        throw imageTooLarge(target, maxBytes);
      }
      throw error;
    }

    try {
      await source.assertNoMoreParts();
      const size = category === 'image' ? await this.imageSizeOf(storageKey, ctx.log) : null;
      return await withTransaction(db, async (tx) => {
        const row = await insertMedia(tx, {
          id,
          projectId: target.projectId,
          environmentId: target.environmentId,
          filename: displayName,
          storageName,
          storageKey,
          mimeType,
          category,
          sizeBytes,
          uploadedBy: ctx.principal.id,
          width: size?.width ?? null,
          height: size?.height ?? null,
        });
        await outbox.record(tx, target, {
          type: 'media.uploaded',
          actor: { id: ctx.principal.id, email: ctx.principal.email ?? '' },
          media: { id, filename: displayName, mimeType, sizeBytes, url: mediaFileUrl(publicUrl, row) },
        });
        return toMediaAsset(row, target, publicUrl);
      });
    } catch (error: unknown) {
      await this.removeObject(storageKey, ctx.log);
      throw error;
    }
  }

  /** One page of the target's media (interface.md "Media list query"). */
  async list(ctx: EnvironmentContext, { query }: ActionInput<List>): Promise<ActionResult<List>> {
    const { db, publicUrl } = this.deps;
    const { target } = ctx;
    const args = toMediaListArgs(query);
    const { rows, total } = await listMedia(db, target, args);
    return {
      items: rows.map((row) => toMediaAsset(row, target, publicUrl)),
      total,
      limit: args.limit,
      offset: args.offset,
    };
  }

  /** One asset of the target, or NOT_FOUND. */
  async get(ctx: EnvironmentContext, { params }: ActionInput<Get>): Promise<ActionResult<Get>> {
    const { target } = ctx;
    const row = await findMedia(this.deps.db, target, params.id);
    if (!row) throw notFound(`Media ${params.id}`);
    return toMediaAsset(row, target, this.deps.publicUrl);
  }

  /** Changes the alt text and/or the focal point (variants cropped around the old point stay until purged with the asset). */
  async update(ctx: EnvironmentContext, { params, body }: ActionInput<Update>): Promise<ActionResult<Update>> {
    const { target } = ctx;
    // The change and its audit entry commit together (docs/audit.md).
    const row = await withTransaction(this.deps.db, async (tx) => {
      const updated = await updateMedia(tx, target, params.id, body);
      if (!updated) throw notFound(`Media ${params.id}`);
      return updated;
    });
    return toMediaAsset(row, target, this.deps.publicUrl);
  }

  /**
   * Deletes the row, which queues its object's purge in the same transaction (migration 0012),
   * then deletes the object. Once this returns the file url answers 404; should the object delete
   * fail (storage outage) or the process stop first, the purge worker deletes it later.
   */
  async delete(ctx: EnvironmentContext, { params }: ActionInput<Delete>): Promise<ActionResult<Delete>> {
    const { db, purge } = this.deps;
    const { target } = ctx;
    const { id } = params;
    // Variants recorded after this read are queued by the delete all the same; the loop purges those.
    const variantKeys = await listMediaVariantKeys(db, target, id);
    const row = await withTransaction(db, async (tx) => {
      const deleted = await deleteMedia(tx, target, id);
      if (!deleted) throw notFound(`Media ${id}`);
      return deleted;
    });
    await purge.purgeNow(row.storageKey);
    for (const key of variantKeys) await purge.purgeNow(key);
    return { deleted: true, id };
  }

  /** The row a file url names, or NOT_FOUND: project, environment, id and name must all match. */
  async getFile(ref: MediaFileRef): Promise<MediaRow> {
    const ids = [ref.projectId, ref.environmentId, ref.mediaId];
    const row = ids.every((value) => UUID.test(value))
      ? await findMediaByFile(this.deps.db, {
          projectId: ref.projectId,
          environmentId: ref.environmentId,
          id: ref.mediaId,
          storageName: ref.storageName,
        })
      : null;
    if (!row) throw notFound('Media file');
    return row;
  }

  /** Opens a file (or one range of it); NOT_FOUND when its object is gone. */
  async openFile(row: MediaRow, range?: ByteRange): Promise<MediaObject> {
    const object = await this.deps.storage.get(row.storageKey, range ? { range } : {});
    if (!object) throw notFound('Media file');
    return object;
  }

  /** A file's stored size and validators (HEAD), or NOT_FOUND when its object is gone. */
  async headFile(row: MediaRow): Promise<MediaObjectInfo> {
    const info = await this.deps.storage.head(row.storageKey);
    if (!info) throw notFound('Media file');
    return info;
  }

  /** The per-project image limit, or null: only a positive integer counts (docs/api.md "Media"). */
  private async imageLimitOf(projectId: string): Promise<number | null> {
    return mediaImageLimitOf(await findProjectMediaImageMaxBytes(this.deps.db, projectId));
  }

  private async removeObject(key: string, log: FastifyBaseLogger): Promise<void> {
    await this.deps.storage.delete(key).catch((error: unknown) => {
      log.error({ err: error, key }, 'could not remove a media object after a failed upload');
    });
  }

  /** The pixel size of a stored image, from the head of its object; null when it cannot be read. */
  private async imageSizeOf(key: string, log: FastifyBaseLogger) {
    try {
      const object = await this.deps.storage.get(key, { range: { start: 0, end: IMAGE_HEADER_BYTES - 1 } });
      if (!object) return null;
      const chunks: Buffer[] = [];
      for await (const chunk of object.body) chunks.push(chunk as Buffer);
      return await readImageSize(Buffer.concat(chunks));
    } catch (error: unknown) {
      log.warn({ err: error, key }, 'could not read the pixel size of an uploaded image');
      return null;
    }
  }
}

function imageTooLarge(target: Target, maxBytes: number): CmsError {
  return new CmsError(
    'PAYLOAD_TOO_LARGE',
    `Images in project "${target.projectSlug}" are limited to ${maxBytes} bytes (project setting ${MEDIA_IMAGE_LIMIT_SETTING}).`,
    { maxBytes, setting: MEDIA_IMAGE_LIMIT_SETTING },
  );
}
