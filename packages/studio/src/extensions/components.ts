/**
 * The Studio components modules may name, by id (`media.library`): compiled in, loaded lazily (each
 * its own chunk). The server's modules declare where they go (`studio.contributions.ts` of each
 * module); a contribution naming an id missing here is skipped with a console warning (a server
 * newer than this Studio build). The signed-in frame hands this map down (`extensions/registry.ts`).
 */
import { lazy } from 'react';
import type { AnyComponent, StudioComponents } from './registry.js';

/**
 * A component loaded when first shown, never before: a page fetches only the chunks of what it shows
 * (docs/benchmarks.md "Studio JavaScript per page").
 */
function load<M>(importer: () => Promise<M>, name: keyof M) {
  return lazy(async () => ({ default: (await importer())[name] as AnyComponent }));
}

export const STUDIO_COMPONENTS: StudioComponents = {
  // Routes
  'schema.view': load(() => import('../pages/schema/schema-page.js'), 'SchemaPage'),
  // Settings panels
  'settings.project': load(() => import('../pages/settings/project-settings-panel.js'), 'ProjectSettingsPanel'),
  // Slot widgets
  'content.recentChanges': load(() => import('./first-party/recent-changes.js'), 'RecentChanges'),
  'schema.typeLink': load(() => import('./first-party/type-schema-link.js'), 'TypeSchemaLink'),
  'content.historyLink': load(() => import('./first-party/history-link.js'), 'HistoryLink'),
  'content.previewLinks': load(() => import('./first-party/preview-links.js'), 'PreviewLinks'),
  'content.releaseActions': load(() => import('./first-party/release-actions.js'), 'ReleaseActions'),
  // Field kinds
  'content.countedText': load(() => import('./first-party/counted-text-field.js'), 'CountedTextField'),
  // Editor nodes
  'media.bodyInsert': load(() => import('./first-party/media-body-insert.js'), 'MediaBodyInsert'),
  // Action overrides
  'content.publishWithSummary': load(() => import('./first-party/publish-with-summary.js'), 'PublishWithSummary'),

  // Pages of the media library, environments and administration areas.
  'releases.page': load(() => import('../pages/releases/releases-page.js'), 'ReleasesPage'),
  'media.library': load(() => import('../pages/media/media-library-page.js'), 'MediaLibraryPage'),
  'environments.page': load(() => import('../pages/environments/environments-page.js'), 'EnvironmentsPage'),
  'webhooks.page': load(() => import('../pages/webhooks/webhooks-page.js'), 'WebhooksPage'),
  'apiKeys.page': load(() => import('../pages/api-keys/api-keys-page.js'), 'ApiKeysPage'),
  'people.page': load(() => import('../pages/people/people-page.js'), 'PeoplePage'),
  // The audit log: the Activity page and the editor's activity section.
  'audit.activity': load(() => import('../pages/activity/activity-page.js'), 'ActivityPage'),
  'audit.documentActivity': load(() => import('./first-party/document-activity.js'), 'DocumentActivity'),
};
