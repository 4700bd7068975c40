import type { ModuleSurface, ServerDeps } from '../module-types.js';
import { CONTENT_ENVIRONMENTS_SERVICE } from '../registry-services.js';
import { createDocumentLifecycleService } from './documents/document-lifecycle.service.js';
import { documentVersionActions } from './documents/document-versions.actions.js';
import { createDocumentVersionsService } from './documents/document-versions.service.js';
import { documentActions } from './documents/documents.actions.js';
import { createDocumentsService } from './documents/documents.service.js';
import { documentBatchActions } from './documents/documents-batch.actions.js';
import { DocumentsBatchService } from './documents/documents-batch.service.js';
import type { DomainShared } from './domain-shared.js';
import { createEnvironmentCloneService } from './environments/environment-clone.service.js';
import { environmentPromoteActions } from './environments/environment-promote.actions.js';
import { createEnvironmentPromoteService } from './environments/environment-promote.service.js';
import { contentMigrationActions } from './migrations/content-migrations.actions.js';
import { ContentMigrationsService } from './migrations/content-migrations.service.js';
import { schemaActions } from './schema/schema.actions.js';
import { createSchemaService } from './schema/schema.service.js';

/** The content area (schema registry, document lifecycle, environment clone and promote, content migrations) of `domain.content`: its actions and background work. */
export async function setupContentArea(deps: ServerDeps, shared: DomainShared): Promise<ModuleSurface> {
  const { clock } = deps;
  const documentDeps = { db: deps.db, outbox: shared.outbox, schemas: shared.schemas, clock };
  const schema = createSchemaService({ db: deps.db, schemas: shared.schemas, bus: deps.bus, clock });
  const documents = createDocumentsService(documentDeps);
  const lifecycle = createDocumentLifecycleService(documentDeps);
  const versions = createDocumentVersionsService(documentDeps);
  // core.system's `POST /environments { cloneFrom }` looks this up at request time.
  deps.registry.provide(CONTENT_ENVIRONMENTS_SERVICE, createEnvironmentCloneService());
  const promotion = createEnvironmentPromoteService({ db: deps.db, outbox: shared.outbox, clock });
  const migrations = new ContentMigrationsService(documentDeps);
  return {
    actions: [
      ...schemaActions(schema),
      ...documentActions(documents, lifecycle),
      ...documentBatchActions(new DocumentsBatchService({ ...documentDeps, statistics: shared.statistics })),
      ...documentVersionActions(lifecycle, versions),
      ...environmentPromoteActions(promotion),
      ...contentMigrationActions(migrations),
    ],
  };
}
