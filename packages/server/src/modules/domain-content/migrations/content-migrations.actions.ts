import { defineAction } from '../../../actions/define-action.js';
import { migrationBodySchema, migrationResultSchema } from './content-migrations.schemas.js';
import type { ContentMigrationsService, MigrateInput } from './content-migrations.service.js';

/** `POST /api/v1/content/migrations` (decisions.md §4, docs/api.md "Content migrations"). */
export function contentMigrationActions(migrations: ContentMigrationsService) {
  return [
    defineAction<unknown, unknown, MigrateInput>({
      id: 'content.migrate',
      kind: 'command',
      method: 'POST',
      path: '/api/v1/content/migrations',
      summary: 'Apply (or dry-run) a named migration to the frontmatter of every document of a type',
      permissions: ['content:write'],
      target: 'environment',
      request: { body: migrationBodySchema },
      response: { status: 200, envelope: 'single', schema: migrationResultSchema },
      cli: { alias: 'content migrate', inputMode: 'file' },
      handler: async ({ body }, ctx) => migrations.migrate(ctx, body),
    }),
  ];
}
