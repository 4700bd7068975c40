/**
 * Audit entries as a person reads them (docs/audit.md "Studio"): "ada@example.com published “Getting
 * started” (Post)", never an action id or a UUID. Pure, so the wording is tested without a browser.
 */
import type { AuditEntry } from '@cms/sdk';
import { labelOf } from '../../ui/labels.js';

/** How an action reads: what was done, and what was tried when it was refused. */
interface Wording {
  done: string;
  tried: string;
  /** The target's kind when it is not a document: "the release", "a file". */
  object?: string;
}

const W = (done: string, tried: string, object?: string): Wording => ({ done, tried, ...(object ? { object } : {}) });

/** Each action of the project's log in words; an action missing here reads as its id in words. */
export const ACTION_WORDS: Readonly<Record<string, Wording>> = {
  'content.create': W('created', 'create'),
  'content.update': W('saved', 'save'),
  'content.publish': W('published', 'publish'),
  'content.unpublish': W('unpublished', 'unpublish'),
  'content.delete': W('deleted', 'delete'),
  'content.restore': W('restored', 'restore'),
  'content.duplicate': W('duplicated', 'duplicate'),
  'content.versions.restore': W('restored an earlier version of', 'restore an earlier version of'),
  'content.batch': W('changed documents in a batch, among them', 'change documents in a batch, among them'),
  'content.migrate': W('ran a content migration', 'run a content migration'),
  'content.previewTokens.create': W('opened a preview of', 'open a preview of'),
  'releases.create': W('created', 'create', 'the release'),
  'releases.items.add': W('added documents to', 'add documents to', 'the release'),
  'releases.items.remove': W('removed a document from', 'remove a document from', 'the release'),
  'releases.schedule': W('scheduled', 'schedule', 'the release'),
  'releases.unschedule': W('unscheduled', 'unschedule', 'the release'),
  'releases.publish': W('published', 'publish', 'the release'),
  'releases.revert': W('reverted', 'revert', 'the release'),
  'releases.runDue': W('published the releases due', 'publish the releases due'),
  'media.upload': W('uploaded', 'upload', 'a file'),
  'media.update': W('changed the details of', 'change the details of', 'a file'),
  'media.delete': W('deleted', 'delete', 'a file'),
  'webhooks.create': W('created', 'create', 'a webhook'),
  'webhooks.update': W('changed', 'change', 'a webhook'),
  'webhooks.delete': W('deleted', 'delete', 'a webhook'),
  'webhooks.deliveries.redeliver': W('redelivered', 'redeliver', 'a webhook delivery'),
  'webhooks.deliveries.redeliverFailed': W('redelivered', 'redeliver', 'the failed webhook deliveries'),
  'schema.sync': W('synced', 'sync', 'the schema'),
  'environments.create': W('created', 'create', 'an environment'),
  'environments.delete': W('deleted', 'delete', 'an environment'),
  'environments.promote': W('promoted', 'promote', 'an environment'),
  'projects.settings.put': W('changed', 'change', 'the project settings'),
};

/** The actions the Activity page offers as a filter, in words ("Published"), most read first. */
export const ACTION_FILTERS: readonly { action: string; label: string }[] = [
  'content.update',
  'content.publish',
  'content.create',
  'content.unpublish',
  'content.delete',
  'content.restore',
  'content.duplicate',
  'content.versions.restore',
  'content.batch',
  'releases.publish',
  'releases.schedule',
  'media.upload',
  'schema.sync',
  'content.previewTokens.create',
].map((action) => {
  const words = ACTION_WORDS[action] as Wording;
  const object = words.object ? ` ${words.object.replace(/^(the|a|an) /, '')}` : '';
  return { action, label: `${words.done.charAt(0).toUpperCase()}${words.done.slice(1)}${object}` };
});

/** Who did it: "You", the person's email, the key by its name, or what the server did by itself. */
export function actorText(entry: AuditEntry, meId?: string): string {
  if (meId && entry.actor.id === meId) return 'You';
  if (entry.actor.type === 'apiKey') return entry.actor.label ? `API key “${entry.actor.label}”` : 'An API key';
  if (entry.actor.label) return entry.actor.label;
  if (entry.actor.type === 'preview') return 'A preview';
  return entry.actor.type === 'system' ? 'The server' : 'Someone';
}

/** The target in words, and where it lives in the Studio (a document or a release), when it has a place. */
export function targetOf(entry: AuditEntry): { text: string; to: string | null } {
  const { target } = entry;
  const words = ACTION_WORDS[entry.action];
  const label = target.label ? `“${target.label}”` : null;
  if (target.documentId && target.type) {
    return {
      text: label ? `${label} (${labelOf(target.type)})` : `a ${labelOf(target.type).toLowerCase()}`,
      to: `/content/${encodeURIComponent(target.type)}/${target.documentId}`,
    };
  }
  if (entry.action.startsWith('releases.') && target.id && entry.action !== 'releases.runDue') {
    return { text: label ? `the release ${label}` : 'a release', to: `/releases/${target.id}` };
  }
  return { text: words?.object ?? (label || ''), to: null };
}

/** The verb of an entry: what was done, or "tried to …" for a refusal. */
export function verbOf(entry: AuditEntry): string {
  const words = ACTION_WORDS[entry.action] ?? fallbackWords(entry.action);
  return entry.outcome === 'success' ? words.done : `tried to ${words.tried}`;
}

/** An action missing from the table (a newer server's): its id ("did webhooks.rotate"). */
function fallbackWords(action: string): Wording {
  return W(`did ${action}`, `do ${action}`);
}

/** The whole sentence, as a screen reader or a copy reads it. */
export function activitySentence(entry: AuditEntry, meId?: string): string {
  const target = targetOf(entry).text;
  return [actorText(entry, meId), verbOf(entry), target].filter(Boolean).join(' ');
}

/** Why a refusal was refused, in words. */
export function outcomeText(entry: AuditEntry): string {
  if (entry.outcome === 'success') return 'Done';
  return entry.outcome === 'denied' ? 'Not allowed' : 'Refused';
}

/** What a diff of a document change says, in a line (keys, never values). */
export function changesText(entry: AuditEntry): string {
  const changes = entry.changes as {
    frontmatter?: { added?: string[]; removed?: string[]; changed?: string[] };
    body?: { linesAdded?: number; linesRemoved?: number; linesAfter?: number };
    status?: number | string;
    batch?: { operations?: number; applied?: number; failed?: number };
    scheduled?: { email?: string | null };
    documents?: number;
  } | null;
  if (!changes) return '';
  const parts: string[] = [];
  const fm = changes.frontmatter;
  if (fm?.changed?.length) parts.push(`changed ${fm.changed.join(', ')}`);
  if (fm?.added?.length) parts.push(`added ${fm.added.join(', ')}`);
  if (fm?.removed?.length) parts.push(`removed ${fm.removed.join(', ')}`);
  if (changes.body && (changes.body.linesAdded || changes.body.linesRemoved)) {
    parts.push(`body +${changes.body.linesAdded ?? 0} −${changes.body.linesRemoved ?? 0} lines`);
  }
  if (typeof changes.status === 'number') parts.push(`answered ${changes.status}`);
  if (changes.batch) parts.push(`batch: ${changes.batch.applied ?? 0} of ${changes.batch.operations ?? 0} applied`);
  if (changes.scheduled) parts.push(`scheduled by ${changes.scheduled.email || 'a removed user'}`);
  if (typeof changes.status === 'string') parts.push(changes.status);
  if (typeof changes.documents === 'number') parts.push(`${changes.documents} documents`);
  return parts.join('; ');
}
