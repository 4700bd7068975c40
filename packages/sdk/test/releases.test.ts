/** The SDK's `releases` area against a real server: every route of docs/sdk.md "Releases", by name. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type SdkHarness, startSdkServer } from './sdk-fixtures.js';

let harness: SdkHarness;
beforeAll(async () => {
  harness = await startSdkServer();
});
afterAll(() => harness.server.close());

const HOUR = 60 * 60_000;

describe('releases', () => {
  it('creates, adds, removes, schedules, unschedules, publishes, reverts, lists and iterates', async () => {
    const cms = harness.client();
    const kept = await cms.content.create({ type: 'post', path: 'sdk-release/kept', frontmatter: { title: 'Kept' } });
    const dropped = await cms.content.create({
      type: 'post',
      path: 'sdk-release/dropped',
      frontmatter: { title: 'No' },
    });

    const created = await cms.releases.create({ title: 'SDK launch', description: 'every route once' });
    expect(created).toMatchObject({ title: 'SDK launch', description: 'every route once', status: 'open', items: [] });
    const added = await cms.releases.addItems(created.id, [
      { documentId: kept.documentId, action: 'publish' },
      { documentId: dropped.documentId, action: 'publish' },
    ]);
    expect(added.itemCount).toBe(2);
    expect(added.items[0]).toMatchObject({ documentId: kept.documentId, changedSinceAdded: false });
    const removed = await cms.releases.removeItem(created.id, dropped.documentId);
    expect(removed.items.map((item) => item.documentId)).toEqual([kept.documentId]);

    const at = new Date(Date.now() + HOUR).toISOString();
    const scheduled = await cms.releases.schedule(created.id, { scheduledAt: at, timeZone: 'Europe/Paris' });
    expect(scheduled).toMatchObject({ status: 'scheduled', scheduledAt: at, timeZone: 'Europe/Paris' });
    const page = await cms.releases.list({ status: 'scheduled' });
    expect(page.data.map((release) => release.id)).toContain(created.id);
    expect(await cms.releases.runDue()).toEqual({ published: [], failed: [] });
    expect(await cms.releases.unschedule(created.id)).toMatchObject({ status: 'open', scheduledAt: null });

    const published = await cms.releases.publish(created.id);
    expect(published.status).toBe('published');
    expect(published.items[0]).toMatchObject({ previousVersion: null, publishedVersion: 1 });
    const inverse = await cms.releases.revert(created.id);
    expect(inverse).toMatchObject({ status: 'published', revertOf: created.id });
    expect(inverse.items).toMatchObject([{ documentId: kept.documentId, action: 'unpublish' }]);
    expect(await cms.releases.get(created.id)).toMatchObject({ status: 'reverted', revertedBy: inverse.id });

    const seen: string[] = [];
    for await (const release of cms.releases.iterate({ limit: 1 })) seen.push(release.id);
    expect(seen).toEqual(expect.arrayContaining([created.id, inverse.id]));
  });

  it('rejects with the server’s codes: a state conflict, an unknown release', async () => {
    const cms = harness.client();
    const open = await cms.releases.create({ title: 'Not scheduled' });
    await expect(cms.releases.unschedule(open.id)).rejects.toMatchObject({
      code: 'RELEASE_STATE_CONFLICT',
      status: 409,
    });
    await expect(cms.releases.get('00000000-0000-4000-8000-000000000000')).rejects.toMatchObject({
      code: 'NOT_FOUND',
      status: 404,
    });
  });
});
