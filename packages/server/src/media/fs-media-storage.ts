import { randomUUID } from 'node:crypto';
import type { BigIntStats } from 'node:fs';
import { type FileHandle, mkdir, open, rename, rm, rmdir, stat, unlink } from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { finished, pipeline } from 'node:stream/promises';
import { CmsError } from '@cms/core';
import { ByteLimit } from './byte-limit.js';
import {
  assertMediaKey,
  type ByteRange,
  type MediaObject,
  type MediaObjectInfo,
  type MediaStorage,
  type PutMediaOptions,
  resolveByteRange,
} from './media-storage.js';

/** Uploads are written here first, inside the root so the final rename stays on one filesystem. */
const TEMP_DIR = '.tmp';

/** Options of the local filesystem driver. */
export interface FsMediaStorageOptions {
  /** Directory holding every object, created on first write (`{CMS_DATA_DIR}/media`). */
  root: string;
}

/** Media storage in a local directory: one file per key, written atomically by rename. */
export class FsMediaStorage implements MediaStorage {
  readonly #root: string;

  constructor(options: FsMediaStorageOptions) {
    this.#root = path.resolve(options.root);
  }

  async put(key: string, body: Readable, options: PutMediaOptions): Promise<{ sizeBytes: number }> {
    const target = this.#pathOf(key);
    const limit = new ByteLimit(options.maxBytes);
    const tempDir = path.join(this.#root, TEMP_DIR);
    await mkdir(tempDir, { recursive: true });
    const temp = path.join(tempDir, `${randomUUID()}.part`);
    // Opening before piping guarantees the temp file exists (and is ours) when cleanup runs.
    const handle = await open(temp, 'wx');
    const out = handle.createWriteStream();
    try {
      await pipeline(body, limit, out);
      await moveIntoPlace(temp, target);
    } catch (error: unknown) {
      if (!out.closed) await finished(out).catch(() => undefined);
      await rm(temp, { force: true });
      throw error;
    }
    return { sizeBytes: limit.bytes };
  }

  async get(key: string, options: { range?: ByteRange } = {}): Promise<MediaObject | null> {
    const handle = await openExisting(this.#pathOf(key));
    if (!handle) return null;
    try {
      const stats = await handle.stat({ bigint: true });
      if (!stats.isFile()) {
        await handle.close();
        return null;
      }
      const info = toInfo(stats);
      if (!options.range) return { ...info, body: handle.createReadStream() };
      const range = resolveByteRange(options.range, info.sizeBytes);
      return { ...info, range, body: handle.createReadStream(range) };
    } catch (error: unknown) {
      await handle.close();
      throw error;
    }
  }

  async head(key: string): Promise<MediaObjectInfo | null> {
    try {
      const stats = await stat(this.#pathOf(key), { bigint: true });
      return stats.isFile() ? toInfo(stats) : null;
    } catch (error: unknown) {
      if (isMissing(error)) return null;
      throw error;
    }
  }

  async delete(key: string): Promise<void> {
    const file = this.#pathOf(key);
    try {
      await unlink(file);
    } catch (error: unknown) {
      if (!isMissing(error)) throw error;
    }
    // Keys nest a directory per project, environment and media id: drop each that is left empty, so
    // deleted media (and deleted environments, once purged) leave nothing behind. A concurrent upload
    // that loses its new parent this way creates it again (moveIntoPlace).
    for (let dir = path.dirname(file); dir !== this.#root; dir = path.dirname(dir)) {
      const removed = await rmdir(dir).then(
        () => true,
        (error: unknown) => {
          if (hasCode(error, 'ENOTEMPTY', 'EEXIST', 'ENOENT')) return false;
          throw error;
        },
      );
      if (!removed) return;
    }
  }

  async close(): Promise<void> {}

  /** The file of `key`, refusing any key that would resolve outside the root. */
  #pathOf(key: string): string {
    assertMediaKey(key);
    const file = path.resolve(this.#root, ...key.split('/'));
    const relative = path.relative(this.#root, file);
    if (relative === '' || relative.startsWith('..') || path.isAbsolute(relative)) {
      throw new CmsError('INVALID_INPUT', `"${key}" is not a valid media storage key.`);
    }
    return file;
  }
}

/** Attempts of mkdir + rename when concurrent deletes keep removing the (then empty) parents. */
const MOVE_ATTEMPTS = 3;

async function moveIntoPlace(temp: string, target: string): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    try {
      await mkdir(path.dirname(target), { recursive: true });
      await rename(temp, target);
      return;
    } catch (error: unknown) {
      // A concurrent delete may have removed an empty ancestor between mkdir and rename.
      if (!hasCode(error, 'ENOENT') || attempt >= MOVE_ATTEMPTS) throw error;
    }
  }
}

async function openExisting(file: string): Promise<FileHandle | null> {
  try {
    return await open(file, 'r');
  } catch (error: unknown) {
    if (isMissing(error)) return null;
    throw error;
  }
}

function toInfo(stats: BigIntStats): MediaObjectInfo {
  // Objects are only ever replaced by rename, so size and mtime identify a version.
  return {
    sizeBytes: Number(stats.size),
    etag: `"${stats.size.toString(16)}-${stats.mtimeNs.toString(16)}"`,
    lastModified: new Date(Number(stats.mtimeMs)),
  };
}

function isMissing(error: unknown): boolean {
  return hasCode(error, 'ENOENT', 'ENOTDIR');
}

function hasCode(error: unknown, ...codes: string[]): boolean {
  return error instanceof Error && codes.includes((error as NodeJS.ErrnoException).code ?? '');
}
