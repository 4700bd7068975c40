/**
 * Presence (decisions.md §8 "Studio for writers": "Also editing: <name>"): who else has a document
 * open in the Studio. The Studio holds one server-sent-events stream per open document
 * (`GET /content/{documentId}/events`): while it is open the server renews the caller's mark every
 * `heartbeatSeconds` and sends a `presence` event whenever the others change, whichever server process
 * they came through. Other clients may instead say so every `heartbeatSeconds` with the PUT route. A
 * mark not renewed within `ttlSeconds` lapses, so a closed tab or a lost server never leaves a ghost behind.
 */
import { type Static, Type } from 'typebox';
import { DocumentIdParamsSchema } from './content.routes.js';
import { defineRoute } from './define-route.js';
import { Timestamp } from './shapes.js';

/** How often an open editor renews its mark, and how long a mark lasts without renewal. */
export const PRESENCE_HEARTBEAT_SECONDS = 10;
export const PRESENCE_TTL_SECONDS = 30;

/** Another person with the document open. */
export const PresenceEditorSchema = Type.Object({
  principalId: Type.String(),
  /** What the Studio shows: the person's email (or a key's label). */
  name: Type.String(),
  /** When they opened it (their first mark of this stay). */
  since: Timestamp,
});
export type PresenceEditor = Static<typeof PresenceEditorSchema>;

/** Answer of a heartbeat: everyone else with the document open now, and the timing to keep. */
export const PresenceSchema = Type.Object({
  documentId: Type.String(),
  editors: Type.Array(PresenceEditorSchema),
  heartbeatSeconds: Type.Integer(),
  ttlSeconds: Type.Integer(),
});
export type Presence = Static<typeof PresenceSchema>;

export const contentPresenceHeartbeatRoute = defineRoute({
  id: 'content.presence.heartbeat',
  kind: 'command',
  method: 'PUT',
  path: '/api/v1/content/{documentId}/presence',
  summary: 'Mark a document as open by the caller (renew every heartbeatSeconds); lists the others who have it open',
  target: 'environment',
  request: { params: DocumentIdParamsSchema },
  response: { status: 200, envelope: 'single', schema: PresenceSchema },
});

export const contentPresenceLeaveRoute = defineRoute({
  id: 'content.presence.leave',
  kind: 'command',
  method: 'DELETE',
  path: '/api/v1/content/{documentId}/presence',
  summary: "Remove the caller's mark on a document (the editor was closed)",
  target: 'environment',
  request: { params: DocumentIdParamsSchema },
  response: { status: 200, envelope: 'single', schema: PresenceSchema },
});

/** The events of a document's stream, by SSE event name, and their data. */
export interface DocumentEvents {
  /** Who else has the document open: sent when the stream opens and whenever that changes. */
  presence: Presence;
}

export const contentDocumentEventsRoute = defineRoute({
  id: 'content.events',
  kind: 'query',
  method: 'GET',
  path: '/api/v1/content/{documentId}/events',
  summary:
    'Server-sent events of one document: `presence` (who else has it open) now and on each change; marks the caller present while open',
  target: 'environment',
  request: { params: DocumentIdParamsSchema },
  response: { status: 200, envelope: 'raw', contentType: 'text/event-stream' },
});
