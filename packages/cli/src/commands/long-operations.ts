/**
 * What the CLI asks the server while it follows a long operation whose answer was late
 * (api/follow.ts): the release it published or reverted, the items it added, the migration it applied.
 */
import type { MigrationResult, Release } from '@cms/core';
import type { CmsApi } from '../api/cms-api.js';

/** A release's publish: done once the release is `published` or `failed`. */
export function publishFollower(api: CmsApi, id: string) {
  return {
    label: `Publishing release ${id}`,
    check: `cms release show ${id}`,
    poll: async (): Promise<Release | undefined> => {
      const release = await api.releases.get(id);
      return release.status === 'published' || release.status === 'failed' ? release : undefined;
    },
  };
}

/** A release's revert: done once it is `reverted`. */
export function revertFollower(api: CmsApi, id: string) {
  return {
    label: `Reverting release ${id}`,
    check: `cms release show ${id}`,
    poll: async (): Promise<Release | undefined> => {
      const release = await api.releases.get(id);
      return release.status === 'reverted' ? release : undefined;
    },
  };
}

/** Items added to a new release: done once it holds `count` of them. */
export function itemsFollower(api: CmsApi, id: string, count: number) {
  return {
    label: `Adding ${count} document(s) to release ${id}`,
    check: `cms release show ${id}`,
    poll: async (): Promise<Release | undefined> => {
      const release = await api.releases.get(id);
      return release.itemCount >= count ? release : undefined;
    },
  };
}

/** A content migration: done once the server has its record (it is written in the migration's transaction). */
export function migrationFollower(api: CmsApi, name: string) {
  return {
    label: `Applying migration ${name}`,
    check: `cms content migration ${name}`,
    poll: async (): Promise<MigrationResult | undefined> => {
      const applied = await api.migrations.find(name);
      if (!applied) return undefined;
      const { type, matched, changed } = applied;
      return { name, type, matched, changed, applied: true, sample: [] };
    },
  };
}
