import type { StudioContributions } from '@cms/core';

/**
 * What `core.system` adds to the Studio: the settings panels for API keys and people (users,
 * grants, invites, sessions). Component ids are mapped in the Studio's `extensions/components.ts`.
 */
export const coreSystemStudio: StudioContributions = {
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
