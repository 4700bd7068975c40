import { contentMigrateRoute, contentMigrationGetRoute } from '@cms/core';
import { type AnyAction, defineAction } from '../../../actions/define-action.js';
import type { ContentMigrationsService } from './content-migrations.service.js';

/** `POST /api/v1/content/migrations` and `GET .../{name}` (decisions.md §4, docs/api.md "Content migrations"). */
export function contentMigrationActions(migrations: ContentMigrationsService): AnyAction[] {
  return [
    defineAction({
      route: contentMigrateRoute,
      permissions: ['content:write'],
      handler: async (input, ctx) => migrations.migrate(ctx, input),
    }),
    defineAction({
      route: contentMigrationGetRoute,
      permissions: ['content:write'],
      handler: async (input, ctx) => migrations.get(ctx, input),
    }),
  ];
}
