/**
 * What the change feed records for a content event (docs/api.md "Change feed"): the kind draft readers
 * see, and the kind readers without draft scope see, or none when the published state did not change.
 */
import type { ChangeKind, ContentWebhookEvent, Serializable } from '@cms/core';
import type { NewChange } from '../../../storage/repositories/changes.repository.js';

/** A content event's subject, as the outbox records it. */
interface ContentEventSubject {
  type: ContentWebhookEvent['event'];
  document: Serializable<Pick<ContentWebhookEvent['document'], 'documentId' | 'type' | 'locale' | 'path' | 'version'>>;
  publishedVersion: number | null;
}

/** `content.published` -> `published`. */
function kindOf(type: ContentWebhookEvent['event']): ChangeKind {
  return type.slice('content.'.length) as ChangeKind;
}

/**
 * The published state's change: publishing and unpublishing always; deleting a document readers could
 * see; restoring a deleted one that has a published version shows it again, so to them it is
 * `published`. Creating, saving a draft, and deleting or restoring a never-published document change
 * nothing they can read.
 */
function publishedKindOf(event: ContentEventSubject): ChangeKind | null {
  switch (event.type) {
    case 'content.published':
    case 'content.unpublished':
      return kindOf(event.type);
    case 'content.deleted':
      return event.publishedVersion === null ? null : 'deleted';
    case 'content.restored':
      return event.publishedVersion === null ? null : 'published';
    default:
      return null;
  }
}

/** The feed entry of a content event whose outbox row has id `id`. */
export function changeOf(id: string, event: ContentEventSubject): NewChange {
  const { document } = event;
  return {
    id,
    documentId: String(document.documentId),
    type: String(document.type),
    locale: String(document.locale),
    path: String(document.path),
    change: kindOf(event.type),
    publishedChange: publishedKindOf(event),
    version: document.version,
  };
}
