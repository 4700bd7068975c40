import { contentDocumentEventsRoute } from '@cms/core';
import { type AnyAction, defineAction } from '../../../actions/define-action.js';
import { createEventStream, replyWithEventStream } from '../event-stream.js';
import type { EventsHub } from '../reads/preview-events.js';
import type { DocumentEventsService } from './document-events.service.js';

/**
 * `GET /content/{documentId}/events`: a `text/event-stream` of one document's events (`presence`) that
 * lasts while the editor has the document open; closing it leaves the document.
 */
export function documentEventsActions(service: DocumentEventsService, hub: EventsHub): AnyAction[] {
  return [
    defineAction({
      route: contentDocumentEventsRoute,
      permissions: ['content:read:draft'],
      cli: { visibility: 'hidden' },
      handler: async ({ params }, ctx, { reply }) => {
        const events = createEventStream();
        const stream = await service.open(
          ctx,
          { documentId: params.documentId },
          (event, data) => events.send(event, data),
          () => events.end(),
        );
        return replyWithEventStream(reply, events, hub, () => stream.stop());
      },
    }),
  ];
}
