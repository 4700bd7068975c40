import type { StudioContributions } from '@cms/core';

/**
 * What `domain.content` adds to the Studio: the releases, media library, environments and schema pages
 * with their navigation, the webhooks and project settings panels, and the content editor's extras
 * (recent changes on the dashboard, the type's schema from its list, history and preview links and the
 * release actions ("Add to release", "Schedule") in the editor, a counted text field, inserting media into a body, publishing with a summary).
 * Component ids are mapped in the Studio's `extensions/components.ts`.
 */
export const domainContentStudio: StudioContributions = {
  routes: [
    {
      id: 'content.mediaRoute',
      path: '/media',
      title: 'Media library',
      component: 'media.library',
      permissions: ['media:read'],
    },
    {
      id: 'content.releasesRoute',
      path: '/releases',
      title: 'Releases',
      component: 'releases.page',
      permissions: ['content:read:draft'],
    },
    { id: 'content.environmentsRoute', path: '/environments', title: 'Environments', component: 'environments.page' },
    {
      id: 'content.schemaRoute',
      path: '/schema',
      title: 'Schema',
      component: 'schema.view',
      permissions: ['schema:read'],
    },
  ],
  navItems: [
    { id: 'content.releasesNav', label: 'Releases', to: '/releases', permissions: ['content:read:draft'], order: 5 },
    { id: 'content.mediaNav', label: 'Media library', to: '/media', permissions: ['media:read'], order: 10 },
    { id: 'content.schemaNav', label: 'Schema', to: '/schema', permissions: ['schema:read'], order: 20 },
    { id: 'content.environmentsNav', label: 'Environments', to: '/environments', order: 30 },
  ],
  slotWidgets: [
    {
      id: 'content.recentChangesWidget',
      slot: 'dashboard.main',
      title: 'Recent changes',
      component: 'content.recentChanges',
      permissions: ['content:read:draft'],
    },
    {
      id: 'content.typeSchemaWidget',
      slot: 'content.list.toolbar',
      title: 'Schema of this type',
      component: 'schema.typeLink',
      permissions: ['schema:read'],
    },
    {
      id: 'content.historyWidget',
      slot: 'content.editor.header.actions',
      title: 'History',
      component: 'content.historyLink',
      permissions: ['content:read:draft'],
    },
    {
      id: 'content.releaseActionsWidget',
      slot: 'content.editor.header.actions',
      title: 'Releases',
      component: 'content.releaseActions',
      permissions: ['content:write'],
    },
    {
      id: 'content.previewWidget',
      slot: 'content.editor.sidebar',
      title: 'Preview',
      component: 'content.previewLinks',
      permissions: ['content:read:draft'],
    },
  ],
  fieldKinds: [{ id: 'content.countedTextField', fieldKind: 'string', check: 'max', component: 'content.countedText' }],
  editorNodes: [
    {
      id: 'content.mediaNode',
      label: 'Insert media',
      formats: ['md', 'mdx'],
      component: 'media.bodyInsert',
      permissions: ['media:read'],
    },
  ],
  actionOverrides: [
    {
      id: 'content.publishOverride',
      action: 'content.publish',
      component: 'content.publishWithSummary',
      permissions: ['content:publish'],
    },
  ],
  settingsPanels: [
    {
      id: 'content.projectSettings',
      slot: 'settings.general',
      path: '/settings/project',
      label: 'Project',
      description: 'Settings of the project that apply in every environment, like the image upload limit.',
      component: 'settings.project',
      order: 0,
    },
    {
      id: 'content.webhooks',
      slot: 'settings.general',
      path: '/settings/webhooks',
      label: 'Webhooks',
      description: 'Addresses told about content and media changes, with their delivery log.',
      component: 'webhooks.page',
      permissions: ['webhooks:read'],
      order: 10,
    },
  ],
};
