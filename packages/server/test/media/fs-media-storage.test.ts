import { randomUUID } from 'node:crypto';
import { mkdtemp, readdir, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { isCmsError } from '@cms/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FsMediaStorage } from '../../src/media/fs-media-storage.js';
import { describeMediaStorageContract, failing, newKey, streamOf } from './media-storage.contract.js';

describeMediaStorageContract('fs', async () => {
  const root = await mkdtemp(path.join(tmpdir(), 'cms-media-fs-'));
  const storage = new FsMediaStorage({ root });
  return {
    storage,
    close: async () => {
      await storage.close();
      await rm(root, { recursive: true, force: true });
    },
  };
});

describe('fs media storage', () => {
  let parent: string;
  let root: string;
  let storage: FsMediaStorage;

  beforeAll(async () => {
    parent = await mkdtemp(path.join(tmpdir(), 'cms-media-fs-'));
    root = path.join(parent, 'media');
    storage = new FsMediaStorage({ root });
  });
  afterAll(async () => {
    await rm(parent, { recursive: true, force: true });
  });

  it('refuses keys that would escape its root and writes nothing outside it', async () => {
    for (const key of ['../outside.txt', 'a/../../outside.txt', '/tmp/outside.txt', '..\\outside.txt']) {
      const error = await storage
        .put(key, streamOf('x'), { contentType: 'text/plain', maxBytes: 10 })
        .catch((e: unknown) => e);
      expect(isCmsError(error) && error.code).toBe('INVALID_INPUT');
    }
    expect(await readdir(parent)).toEqual([]);
  });

  it('stores a key as nested directories under the root', async () => {
    const key = newKey('photo.png');
    await storage.put(key, streamOf('png'), { contentType: 'image/png', maxBytes: 10 });
    expect((await stat(path.join(root, ...key.split('/')))).size).toBe(3);
    await storage.delete(key);
  });

  it('leaves no temp file behind after failed uploads', async () => {
    const key = newKey('broken.bin');
    await expect(
      storage.put(key, failing(100_000), { contentType: 'application/octet-stream', maxBytes: 1e6 }),
    ).rejects.toThrow();
    await expect(storage.put(key, streamOf('too long'), { contentType: 'text/plain', maxBytes: 3 })).rejects.toThrow();
    expect(await readdir(path.join(root, '.tmp'))).toEqual([]);
  });

  it('removes the directories a delete leaves empty, and only those', async () => {
    const [project, environment] = [randomUUID(), randomUUID()];
    const first = `${project}/${environment}/${randomUUID()}/first.txt`;
    const second = `${project}/${environment}/${randomUUID()}/second.txt`;
    const dirOf = (key: string) => path.join(root, ...key.split('/').slice(0, -1));
    await storage.put(first, streamOf('one'), { contentType: 'text/plain', maxBytes: 10 });
    await storage.put(second, streamOf('two'), { contentType: 'text/plain', maxBytes: 10 });
    await storage.delete(first);
    await expect(stat(dirOf(first))).rejects.toMatchObject({ code: 'ENOENT' });
    expect((await stat(dirOf(second))).isDirectory()).toBe(true);
    await storage.delete(second);
    await expect(stat(path.join(root, project))).rejects.toMatchObject({ code: 'ENOENT' });
    expect((await stat(root)).isDirectory()).toBe(true);
  });

  it('changes the ETag when an object is replaced', async () => {
    const key = newKey('etag.txt');
    await storage.put(key, streamOf('one'), { contentType: 'text/plain', maxBytes: 10 });
    const first = await storage.head(key);
    await storage.put(key, streamOf('three'), { contentType: 'text/plain', maxBytes: 10 });
    expect((await storage.head(key))?.etag).not.toBe(first?.etag);
    await storage.delete(key);
  });
});
