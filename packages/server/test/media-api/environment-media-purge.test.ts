import { randomUUID } from 'node:crypto';
import { stat } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DRIVERS, eventually, type MediaTestServer, startMediaServer, uploadOk } from './media-api-support.js';
import { createEnvironment, deleteEnvironment, queueEntries } from './media-purge-support.js';

// The poll interval stays at its default (30 s) here: each purge below must come from the wake-up
// of the delete itself, well within `eventually`'s 10 s.
describe.each(DRIVERS)('media of deleted environments and projects (%s driver)', (driver) => {
  let m: MediaTestServer;

  beforeAll(async () => {
    m = await startMediaServer(driver);
  });
  afterAll(async () => {
    await m?.close();
  });

  const keyOf = (asset: { id: string }) => async () => (await m.storedKeys()).find((key) => key.includes(asset.id));

  it('deletes the files of a deleted environment and keeps every other environment’s', async () => {
    await createEnvironment(m.t, 'doomed');
    await createEnvironment(m.t, 'kept');
    const doomed = [
      await uploadOk(m.t, { filename: 'one.txt', content: 'one' }, { environment: 'doomed' }),
      await uploadOk(m.t, { filename: 'two.png', content: 'two' }, { environment: 'doomed' }),
    ];
    const kept = [
      await uploadOk(m.t, { filename: 'prod.txt', content: 'production' }),
      await uploadOk(m.t, { filename: 'kept.txt', content: 'kept' }, { environment: 'kept' }),
    ];
    const keysBefore = await m.storedKeys();
    for (const asset of [...doomed, ...kept]) expect(await keyOf(asset)()).toBeDefined();
    const environmentId = (await m.t.db.query<{ id: string }>(`select id from environments where name = 'doomed'`))
      .rows[0]?.id;

    await deleteEnvironment(m.t, 'doomed');

    await eventually(async () => (await queueEntries(m.t)).length === 0 && (await keyOf(doomed[0])()) === undefined);
    const keysAfter = await m.storedKeys();
    expect(keysAfter).toEqual(keysBefore.filter((key) => !doomed.some((asset) => key.includes(asset.id))));
    for (const asset of kept) expect(keysAfter.some((key) => key.includes(asset.id))).toBe(true);
    expect((await m.t.request('GET', `/api/v1/media/${kept[0].id}`)).status).toBe(200);
    expect((await m.t.request('GET', `/api/v1/media/${kept[1].id}`, { environment: 'kept' })).status).toBe(200);
    if (driver === 'fs') {
      const root = path.join(m.t.dataDir, 'media');
      const projectDir = (await m.t.db.query<{ id: string }>(`select id from projects where slug = 'default'`)).rows[0]
        ?.id as string;
      await expect(stat(path.join(root, projectDir, environmentId as string))).rejects.toMatchObject({
        code: 'ENOENT',
      });
    }
  });

  it('deletes the file of a deleted asset before answering and leaves nothing queued', async () => {
    const asset = await uploadOk(m.t, { filename: 'single.txt', content: 'single' });
    expect(await keyOf(asset)()).toBeDefined();
    const deleted = await m.t.request('DELETE', `/api/v1/media/${asset.id}`);
    expect(deleted.status).toBe(200);
    expect(await keyOf(asset)()).toBeUndefined();
    expect(await queueEntries(m.t)).toEqual([]);
  });

  // No route deletes a project; one deleted in SQL (an operator) queues its media all the same.
  it('queues and purges the files of a project deleted in the database', async () => {
    const projectId = randomUUID();
    await m.t.db.query(`insert into projects (id, slug, name) values ($1, $2, 'Gone')`, [projectId, `gone-${driver}`]);
    await m.t.db.query(
      `insert into environments (id, project_id, name, is_default) values ($1, $2, 'production', true)`,
      [randomUUID(), projectId],
    );
    const asset = await uploadOk(m.t, { filename: 'gone.txt', content: 'gone' }, { project: `gone-${driver}` });
    const survivor = await uploadOk(m.t, { filename: 'survivor.txt', content: 'survivor' });

    await m.t.db.query('delete from projects where id = $1', [projectId]);
    const queued = await queueEntries(m.t);
    expect(queued.map((entry) => entry.storageKey)).toEqual([expect.stringContaining(asset.id)]);

    // Nothing woke the worker: its start-up pass or a poll finds the entry. Here: wake it by an
    // environment delete, which every process hears.
    await createEnvironment(m.t, `wake-${driver}`);
    await deleteEnvironment(m.t, `wake-${driver}`);
    await eventually(async () => (await queueEntries(m.t)).length === 0);
    expect(await keyOf(asset)()).toBeUndefined();
    expect(await keyOf(survivor)()).toBeDefined();
  });
});
