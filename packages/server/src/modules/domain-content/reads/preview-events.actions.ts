import { contentPreviewEventsRoute } from '@cms/core';
import { type AnyAction, defineAction } from '../../../actions/define-action.js';
import { createEventStream, replyWithEventStream } from '../event-stream.js';
import type { PreviewEventsHub } from './preview-events.js';
import type { PreviewEventSink, PreviewEventsService } from './preview-events.service.js';

/**
 * `GET /content/{documentId}/preview-events`: a `text/event-stream` (WHATWG HTML "Server-sent events")
 * that ends when the token expires or the client goes away.
 */
export function previewEventsActions(service: PreviewEventsService, hub: PreviewEventsHub): AnyAction[] {
  return [
    defineAction({
      route: contentPreviewEventsRoute,
      permissions: [],
      studio: { visibility: 'hidden' },
      cli: { visibility: 'hidden' },
      handler: async ({ params, query }, _ctx, { request, reply }) => {
        const events = createEventStream();
        const send: PreviewEventSink = (event, data) => {
          events.send(event, data);
          if (event === 'expired') events.end();
        };
        const stream = await service.open(
          { documentId: params.documentId, token: query.token, origin: request.headers.origin },
          send,
        );
        if (stream.allowOrigin)
          reply.header('access-control-allow-origin', stream.allowOrigin).header('vary', 'Origin');
        return replyWithEventStream(reply, events, hub, () => stream.stop());
      },
    }),
  ];
}
