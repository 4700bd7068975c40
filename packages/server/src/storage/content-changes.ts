/**
 * Content changes recorded by the triggers of migration 0015: each transaction that changes what a
 * published read returns lists the environments it changed in the transaction-local setting
 * `cms.content_changed`. The transaction wrappers read the setting just before COMMIT and, once it
 * succeeds, deliver `content:<environment id>` (`content` alone: every environment) on
 * `cms_invalidate` to this process's listeners before the transaction returns, so the process that
 * wrote never serves what its write replaced. The triggers also NOTIFY the other processes (they hear
 * it at COMMIT). See docs/performance.md "Published read cache".
 */
import { INVALIDATION_CHANNEL } from '../tenancy/invalidation.js';

/** The statement that reads the environments the open transaction changed. */
export const CONTENT_CHANGED_QUERY = `select current_setting('cms.content_changed', true) as changed`;

/** The notification payloads for the setting's value (`null` or empty: nothing changed). */
export function contentChangePayloads(changed: string | null | undefined): string[] {
  if (!changed) return [];
  const environments = changed.split(',').filter((id) => id !== '');
  if (environments.includes('*')) return ['content'];
  return environments.map((id) => `content:${id}`);
}

/** The channel the payloads are delivered on. */
export const CONTENT_CHANGE_CHANNEL = INVALIDATION_CHANNEL;
