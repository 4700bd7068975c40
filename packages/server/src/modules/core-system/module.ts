import type { ServerModule } from '../module-types.js';
import { createApiKeyAuthenticator } from './api-key-authenticator.js';
import { bootstrapDefaultProject } from './bootstrap.js';
import { catalogActions } from './catalog.actions.js';
import { createCatalogService } from './catalog.service.js';
import { environmentActions } from './environments.actions.js';
import { createEnvironmentsService } from './environments.service.js';
import { healthActions } from './health.actions.js';

/** `core.system`: health, the action catalog, authentication, users, keys, grants, invites, projects. */
export const coreSystemModule: ServerModule = {
  manifest: { id: 'core.system', version: '1.0.0', apiVersion: '1', kind: 'core' },
  async setup(deps) {
    let shuttingDown = false;
    if (await bootstrapDefaultProject(deps.db, deps.config.defaultProject)) {
      deps.log.info({ project: deps.config.defaultProject }, 'created the default project with environment production');
    }
    const apiKeys = createApiKeyAuthenticator(deps.db, deps.bus);
    const catalog = createCatalogService({
      actions: deps.actions,
      version: deps.modules().find((m) => m.id === 'core.system')?.version ?? '1.0.0',
      publicUrl: deps.config.publicUrl,
    });
    return {
      actions: [
        ...healthActions(deps.db, () => shuttingDown),
        ...catalogActions(catalog),
        ...environmentActions(createEnvironmentsService({ db: deps.db })),
      ],
      authStrategies: [apiKeys.strategy],
      start: () => apiKeys.start(),
      stop: async () => {
        shuttingDown = true;
        await apiKeys.stop();
      },
    };
  },
};
