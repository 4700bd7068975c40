import { Readable } from 'node:stream';
import { buffer as readAll } from 'node:stream/consumers';
import { CmsError, type MediaImageQuery, notFound } from '@cms/core';
import type { FastifyBaseLogger } from 'fastify';
import type { RequestContext } from '../../../http/request-context.js';
import { OUTPUT_TYPES, TRANSFORMABLE_MIME_TYPES, transformImage } from '../../../media/image-transform.js';
import type { MediaStorage } from '../../../media/media-storage.js';
import type { TransformQueue } from '../../../media/transform-queue.js';
import type { Db } from '../../../storage/db.js';
import { findMediaWithTarget, type MediaRowWithTarget } from '../../../storage/repositories/media.repository.js';
import { insertMediaVariant } from '../../../storage/repositories/media-variants.repository.js';
import { imageTransformSettingsOf } from '../../../tenancy/project-settings.js';
import { type ImageRequestPlan, planImageRequest } from './media-image-plan.js';

/** One image answer, resolved but not yet read: the caller answers 304 from `etag` without opening it. */
export interface ImageAnswer {
  /** Quoted strong ETag: the variant hash. */
  etag: string;
  contentType: string;
  /** `format=auto`: the answer varies with `Accept`. */
  negotiated: boolean;
  /** The variant's bytes: stored already (`hit`), computed for this request (`miss`) or for another one in flight (`shared`). */
  open(): Promise<{ body: Readable | Buffer; sizeBytes: number; cache: 'hit' | 'miss' | 'shared' }>;
}

export interface MediaImageServiceDeps {
  db: Db;
  storage: MediaStorage;
  queue: TransformQueue;
  log: FastifyBaseLogger;
}

/** Where a variant lives in media storage: beside no original (project ids are uuids, never `variants`). */
export function variantStorageKey(row: MediaRowWithTarget, plan: ImageRequestPlan): string {
  return `variants/${row.projectId}/${row.environmentId}/${row.id}/${plan.variant}.${plan.plan.format}`;
}

/**
 * Transformed images (docs/api.md "Image transforms"): each variant is computed once, through the
 * bounded transform queue, stored beside the originals and recorded (migration 0035) so it is purged
 * with its asset. Concurrent requests for one variant in this process share one computation.
 */
export function createMediaImageService(deps: MediaImageServiceDeps) {
  const { db, storage, queue } = deps;
  const computing = new Map<string, Promise<Buffer>>();

  async function compute(row: MediaRowWithTarget, plan: ImageRequestPlan, key: string, maxInputPixels: number) {
    const bytes = await queue.run(async () => {
      const original = await storage.get(row.storageKey);
      if (!original) throw notFound('Media file');
      const input = await readAll(original.body);
      return transformImage(input, plan.plan, { maxInputPixels });
    });
    const contentType = OUTPUT_TYPES[plan.plan.format];
    await storage.put(key, Readable.from([bytes], { objectMode: false }), { contentType, maxBytes: bytes.length + 1 });
    const scope = { projectId: row.projectId, environmentId: row.environmentId };
    const variant = { mediaId: row.id, variant: plan.variant, storageKey: key, contentType, sizeBytes: bytes.length };
    const recorded = await insertMediaVariant(db, scope, variant).catch((error: unknown) => {
      // 23503: the asset was deleted between the check and the insert.
      if ((error as { code?: string }).code === '23503') return false;
      throw error;
    });
    if (!recorded) {
      await storage.delete(key);
      throw notFound(`Media ${row.id}`);
    }
    return bytes;
  }

  return {
    /**
     * Resolves an image request: credentials and access, the asset, the parameters against the
     * project's presets and limits. Without credentials only presets are served (UNAUTHORIZED);
     * free sizes need `media:read` where the asset stands (FORBIDDEN).
     */
    async resolve(
      ctx: RequestContext,
      id: string,
      query: MediaImageQuery,
      accept: string | undefined,
    ): Promise<ImageAnswer> {
      const anonymous = ctx.principal.type === 'anonymous';
      if (anonymous && query.preset === undefined) {
        throw new CmsError(
          'UNAUTHORIZED',
          'Without credentials ask for a named preset (?preset=thumbnail, or one of the project setting mediaImagePresets): free sizes need an API key with media:read.',
          { fields: { preset: 'is required without credentials' } },
        );
      }
      const row = await findMediaWithTarget(db, id);
      if (!row) throw notFound(`Media ${id}`);
      const settings = imageTransformSettingsOf(row.projectSettings ?? {});
      const focal = row.focalX !== null && row.focalY !== null ? { x: row.focalX, y: row.focalY } : null;
      const plan = planImageRequest(query, settings, accept, focal);
      if (plan.preset === null) {
        const scopes = ctx.principal.scopesIn({ projectSlug: row.projectSlug, environmentName: row.environmentName });
        if (!scopes.has('media:read')) {
          throw new CmsError(
            'FORBIDDEN',
            'Free image sizes need the media:read permission: ask for a named preset instead.',
            {
              missing: ['media:read'],
            },
          );
        }
      }
      if (!TRANSFORMABLE_MIME_TYPES.has(row.mimeType)) {
        throw new CmsError(
          'IMAGE_NOT_TRANSFORMABLE',
          `This asset is ${row.mimeType}, which is not transformed (JPEG, PNG, WebP, AVIF, GIF and TIFF are): link its url instead.`,
          { mimeType: row.mimeType },
        );
      }
      const key = variantStorageKey(row, plan);
      const contentType = OUTPUT_TYPES[plan.plan.format];
      return {
        etag: `"${plan.variant}"`,
        contentType,
        negotiated: plan.negotiated,
        open: async () => {
          const stored = await storage.get(key);
          if (stored) return { body: stored.body, sizeBytes: stored.sizeBytes, cache: 'hit' };
          const joined = computing.get(key);
          const pending =
            joined ?? compute(row, plan, key, settings.maxInputPixels).finally(() => computing.delete(key));
          if (!joined) computing.set(key, pending);
          const bytes = await pending;
          return { body: bytes, sizeBytes: bytes.length, cache: joined ? 'shared' : 'miss' };
        },
      };
    },
  };
}

/** The image service. */
export type MediaImageService = ReturnType<typeof createMediaImageService>;
