import type { StudioContributions } from '@cms/core';

/**
 * What `core.system` adds to the Studio: the Activity page and the editor's activity section (the
 * audit log), and the settings panels for API keys and people (users, grants, invites, sessions). Component ids are mapped in the Studio's `extensions/components.ts`.
 */
export const coreSystemStudio: StudioContributions = {
  // The audit log (docs/audit.md): a page, its nav item, and the editor's activity section.
  routes: [
    {
      id: 'system.activityRoute',
      path: '/activity',
      title: 'Activity',
      component: 'audit.activity',
      permissions: ['audit:read'],
    },
  ],
  navItems: [{ id: 'system.activityNav', label: 'Activity', to: '/activity', permissions: ['audit:read'], order: 40 }],
  slotWidgets: [
    {
      id: 'system.documentActivity',
      slot: 'content.editor.sidebar',
      title: 'Activity',
      component: 'audit.documentActivity',
      permissions: ['content:read:draft'],
    },
  ],
  settingsPanels: [
    {
      id: 'system.apiKeys',
      slot: 'settings.general',
      path: '/settings/api-keys',
      label: 'API keys',
      description: 'Keys for sites, scripts and the command line: scopes, allowed environments, expiry.',
      component: 'apiKeys.page',
      permissions: ['settings:manage'],
      order: 20,
    },
    {
      id: 'system.people',
      slot: 'settings.general',
      path: '/settings/people',
      label: 'People',
      description: 'Users, their roles and grants per project and environment, invitations and sessions.',
      component: 'people.page',
      permissions: ['users:manage'],
      order: 30,
    },
  ],
};
