import type { ServerModule } from '../module-types.js';
import { createApiKeyAuthenticator } from './api-key-authenticator.js';
import { apiKeyActions } from './api-keys.actions.js';
import { createApiKeysService } from './api-keys.service.js';
import { authActions } from './auth.actions.js';
import { createAuthService } from './auth.service.js';
import { bootstrapDefaultProject } from './bootstrap.js';
import { catalogActions } from './catalog.actions.js';
import { createCatalogService } from './catalog.service.js';
import { systemClock } from './clock.js';
import { environmentActions } from './environments.actions.js';
import { createEnvironmentsService } from './environments.service.js';
import { createGrantsService } from './grants.service.js';
import { healthActions } from './health.actions.js';
import { inviteActions } from './invites.actions.js';
import { createInvitesService } from './invites.service.js';
import { createLoginThrottle } from './login-throttle.js';
import { meActions } from './me.actions.js';
import { createMeService } from './me.service.js';
import { projectActions } from './projects.actions.js';
import { createProjectsService } from './projects.service.js';
import { createSessionAuthenticator } from './session-authenticator.js';
import { cookiePolicyFor } from './session-cookies.js';
import { createSessionsService } from './sessions.service.js';
import { setupActions } from './setup.actions.js';
import { createSetupService } from './setup.service.js';
import { createStudioService } from './studio.service.js';
import { userActions } from './users.actions.js';
import { createUsersService } from './users.service.js';

/** `core.system`: health, the action catalog, authentication, users, keys, grants, invites, projects. */
export const coreSystemModule: ServerModule = {
  manifest: { id: 'core.system', version: '1.0.0', apiVersion: '1', kind: 'core' },
  async setup(deps) {
    let shuttingDown = false;
    const { db, bus, config } = deps;
    const clock = systemClock;
    if (await bootstrapDefaultProject(db, config.defaultProject)) {
      deps.log.info({ project: config.defaultProject }, 'created the default project with environment production');
    }
    const sessions = createSessionsService({ db, secret: config.secret, clock });
    const setup = createSetupService({ db, config, sessions, clock, log: deps.log });
    await setup.bootstrap();

    const apiKeys = createApiKeyAuthenticator(db, bus);
    const sessionAuth = createSessionAuthenticator({ db, secret: config.secret, clock });
    const cookies = cookiePolicyFor(config.publicUrl);
    const catalog = createCatalogService({
      actions: deps.actions,
      version: deps.modules().find((m) => m.id === 'core.system')?.version ?? '1.0.0',
      publicUrl: config.publicUrl,
    });
    const me = createMeService();
    const projects = createProjectsService({ db, bus });
    const environments = createEnvironmentsService({ db, bus, targets: deps.targets, registry: deps.registry });
    const auth = createAuthService({ db, sessions, throttle: createLoginThrottle({ db, clock }) });
    return {
      actions: [
        ...healthActions(db, () => shuttingDown),
        ...catalogActions(catalog),
        ...setupActions({ setup, cookies }),
        ...authActions({ auth, sessions, cookies }),
        ...meActions({ me, studio: createStudioService({ me, projects, environments, modules: deps.modules }) }),
        ...projectActions(projects),
        ...environmentActions(environments),
        ...apiKeyActions(createApiKeysService({ db, bus, clock, forgetCachedKeys: () => apiKeys.forget() })),
        ...userActions({ users: createUsersService({ db, sessions, clock }), grants: createGrantsService({ db }) }),
        ...inviteActions({
          invites: createInvitesService({ db, sessions, clock, publicUrl: config.publicUrl }),
          cookies,
        }),
      ],
      // API keys first: a request with a Bearer key is judged by the key even if it carries a cookie.
      authStrategies: [apiKeys.strategy, sessionAuth.strategy],
      start: () => {
        apiKeys.start();
        sessionAuth.start();
      },
      stop: async () => {
        shuttingDown = true;
        sessionAuth.stop();
        await apiKeys.stop();
      },
    };
  },
};
