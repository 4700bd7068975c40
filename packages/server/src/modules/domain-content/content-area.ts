import type { ModuleSurface, ServerDeps } from '../module-types.js';
import { createDocumentLifecycleService } from './documents/document-lifecycle.service.js';
import { documentVersionActions } from './documents/document-versions.actions.js';
import { createDocumentVersionsService } from './documents/document-versions.service.js';
import { documentActions } from './documents/documents.actions.js';
import { createDocumentsService } from './documents/documents.service.js';
import type { DomainShared } from './domain-shared.js';
import { schemaActions } from './schema/schema.actions.js';
import { createSchemaService } from './schema/schema.service.js';

/** The content area (schema registry and document lifecycle) of `domain.content`: its actions and background work. */
export async function setupContentArea(deps: ServerDeps, shared: DomainShared): Promise<ModuleSurface> {
  const clock = () => new Date();
  const documentDeps = { db: deps.db, outbox: shared.outbox, schemas: shared.schemas, clock };
  const schema = createSchemaService({ db: deps.db, schemas: shared.schemas, bus: deps.bus, clock });
  const documents = createDocumentsService(documentDeps);
  const lifecycle = createDocumentLifecycleService(documentDeps);
  const versions = createDocumentVersionsService(documentDeps);
  return {
    actions: [
      ...schemaActions(schema),
      ...documentActions(documents, lifecycle),
      ...documentVersionActions(lifecycle, versions),
    ],
  };
}
