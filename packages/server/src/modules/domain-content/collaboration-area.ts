import type { ModuleSurface, ServerDeps } from '../module-types.js';
import { collaborationActions } from './collaboration/collaboration.actions.js';
import { documentEventsActions } from './collaboration/document-events.actions.js';
import { createDocumentEventsService } from './collaboration/document-events.service.js';
import { createPresenceService } from './collaboration/presence.service.js';
import { createReferrersService } from './collaboration/referrers.service.js';
import type { DomainShared } from './domain-shared.js';
import { createEventsHub } from './reads/preview-events.js';

/**
 * Working together on documents (`domain.content`): who points at a document, who has it open, and
 * the document's event stream that carries the latter.
 */
export async function setupCollaborationArea(deps: ServerDeps, shared: DomainShared): Promise<ModuleSurface> {
  const referrers = createReferrersService({ db: deps.db, schemas: shared.schemas });
  const presence = createPresenceService({ db: deps.db, clock: deps.clock, bus: deps.bus });
  const hub = createEventsHub(deps.bus, 'presence');
  const leftHub = createEventsHub(deps.bus, 'presence-left');
  const documentEvents = createDocumentEventsService({ presence, hub, leftHub });
  return {
    actions: [...collaborationActions(referrers, presence), ...documentEventsActions(documentEvents, hub)],
    closing: () => hub.closeAll(),
  };
}
