import { coreSystemCli } from '@cms/core/cli-surface';
import type { ServerModule } from '../module-types.js';
import { createApiKeyAuthenticator } from './api-key-authenticator.js';
import { apiKeyActions } from './api-keys.actions.js';
import { createApiKeysService } from './api-keys.service.js';
import { auditActions } from './audit.actions.js';
import { createAuditService } from './audit.service.js';
import { createAuditRetention } from './audit-retention.js';
import { authActions } from './auth.actions.js';
import { createAuthService } from './auth.service.js';
import { bootstrapDefaultProject } from './bootstrap.js';
import { catalogActions } from './catalog.actions.js';
import { createCatalogService } from './catalog.service.js';
import { cliAuthActions } from './cli-auth.actions.js';
import { CliAuthService } from './cli-auth.service.js';
import { createDevelopmentKey, writeDevelopmentKeyFile } from './dev-key.js';
import { createDeviceCookies } from './device-cookies.js';
import { environmentActions } from './environments.actions.js';
import { createEnvironmentsService } from './environments.service.js';
import { createGrantsService } from './grants.service.js';
import { healthActions } from './health.actions.js';
import { inviteActions } from './invites.actions.js';
import { createInvitesService } from './invites.service.js';
import { createLoginThrottle } from './login-throttle.js';
import { meActions } from './me.actions.js';
import { createMeService } from './me.service.js';
import { mfaActions } from './mfa.actions.js';
import { MfaService } from './mfa.service.js';
import { OidcService } from './oidc.service.js';
import { pendingInviteActions } from './pending-invites.actions.js';
import { projectActions } from './projects.actions.js';
import { createProjectsService } from './projects.service.js';
import { samlActions } from './saml.actions.js';
import { SamlService } from './saml.service.js';
import { readOrCreateSamlSpKeys, type SamlSpKeys } from './saml-sp-keys.js';
import { createSessionAuthenticator } from './session-authenticator.js';
import { cookiePolicyFor } from './session-cookies.js';
import { createSessionsService } from './sessions.service.js';
import { setupActions } from './setup.actions.js';
import { createSetupService } from './setup.service.js';
import { ssoActions } from './sso.actions.js';
import { createSsoSignIn } from './sso-sign-in.js';
import { coreSystemStudio } from './studio.contributions.js';
import { createStudioService } from './studio.service.js';
import { userActions } from './users.actions.js';
import { createUsersService } from './users.service.js';

/** `core.system`: health, the action catalog, authentication, users, keys, grants, invites, projects. */
export const coreSystemModule: ServerModule = {
  manifest: { id: 'core.system', version: '1.0.0', apiVersion: '1', kind: 'core' },
  cli: coreSystemCli,
  studio: coreSystemStudio,
  async setup(deps) {
    let shuttingDown = false;
    const { db, bus, config } = deps;
    const { clock } = deps;
    const notices: Record<string, string> = {};
    if (await bootstrapDefaultProject(db, config.defaultProject)) {
      deps.log.info({ project: config.defaultProject }, 'created the default project with environment production');
      if (config.devKey) {
        notices.devKey = await createDevelopmentKey(db);
        const devKeyFile = await writeDevelopmentKeyFile(config.dataDir, notices.devKey);
        deps.log.info(
          { devKeyFile },
          'created a development key with every scope, written to devKeyFile (docs/access-control.md "Development key")',
        );
      }
    }
    const sessions = createSessionsService({ db, secret: config.secret, clock });
    const setup = createSetupService({ db, config, sessions, clock, log: deps.log });
    const setupUrl = await setup.bootstrap();
    if (setupUrl) notices.setupUrl = setupUrl;

    const apiKeys = createApiKeyAuthenticator(db, bus, clock, deps.audit);
    const sessionAuth = createSessionAuthenticator({ db, secret: config.secret, clock, requireMfa: config.requireMfa });
    const cookies = cookiePolicyFor(config.publicUrl);
    const catalog = createCatalogService({
      actions: deps.actions,
      version: deps.modules().find((m) => m.id === 'core.system')?.version ?? '1.0.0',
      publicUrl: config.publicUrl,
    });
    const me = createMeService();
    const projects = createProjectsService({ db, bus });
    const environments = createEnvironmentsService({ db, bus, targets: deps.targets, registry: deps.registry });
    const throttle = createLoginThrottle({
      db,
      clock,
      devices: createDeviceCookies(config.secret),
      log: deps.log.child({ area: 'sign-in' }),
    });
    const mfa = new MfaService({
      db,
      clock,
      secret: config.secret,
      issuer: `CMS (${new URL(config.publicUrl).hostname})`,
      requireMfa: config.requireMfa,
      throttle,
      log: deps.log.child({ area: 'mfa' }),
    });
    const auth = createAuthService({ db, sessions, throttle, mfa, clock });
    const users = createUsersService({ db, sessions, clock, throttle });
    const ssoSignIn = createSsoSignIn({ db, sessions, clock, log: deps.log.child({ area: 'sso' }) });
    const oidc = new OidcService({
      db,
      clock,
      publicUrl: config.publicUrl,
      timeoutSeconds: config.sso.timeoutSeconds,
      signIn: ssoSignIn,
    });
    // The SP signing pair: from the environment, else generated into the data dir at first use (embedded).
    let spKeys: Promise<SamlSpKeys | null> | null = null;
    const saml = new SamlService({
      db,
      clock,
      publicUrl: config.publicUrl,
      providers: config.sso.saml,
      spKeys: () => {
        spKeys ??= config.sso.samlSp
          ? Promise.resolve(config.sso.samlSp)
          : config.databaseUrl === null
            ? readOrCreateSamlSpKeys(config.dataDir, new URL(config.publicUrl).host)
            : Promise.resolve(null);
        return spKeys;
      },
      signIn: ssoSignIn,
    });
    const retention = createAuditRetention({
      db,
      clock,
      log: deps.log.child({ area: 'audit' }),
      retentionDays: config.auditRetentionDays,
      intervalSeconds: config.auditRetentionIntervalSeconds,
    });
    return {
      actions: [
        ...healthActions(db, () => shuttingDown),
        ...catalogActions(catalog),
        ...setupActions({ setup, cookies }),
        ...authActions({ auth, sessions, cookies }),
        ...mfaActions(mfa),
        ...ssoActions({ settings: config.sso, oidc, saml, publicUrl: config.publicUrl, cookies }),
        ...samlActions({ saml, publicUrl: config.publicUrl, cookies }),
        ...cliAuthActions(
          new CliAuthService({
            db,
            secret: config.secret,
            clock,
            publicUrl: config.publicUrl,
            targets: deps.targets,
          }),
        ),
        ...meActions({
          me,
          users,
          studio: createStudioService({
            me,
            projects,
            environments,
            modules: deps.modules,
            extensions: deps.studioExtensions,
            publicUrl: config.publicUrlConfigured === false ? null : config.publicUrl,
          }),
        }),
        ...projectActions(projects),
        ...environmentActions(environments),
        ...apiKeyActions(createApiKeysService({ db, bus, clock, forgetCachedKeys: () => apiKeys.forget() })),
        ...userActions({
          users,
          grants: createGrantsService({ db }),
        }),
        ...inviteActions({
          invites: createInvitesService({ db, sessions, clock, publicUrl: config.publicUrl }),
          cookies,
        }),
        ...pendingInviteActions({ db, clock }),
        ...auditActions(createAuditService({ db })),
      ],
      notices,
      // API keys first: a request with a Bearer key is judged by the key even if it carries a cookie.
      authStrategies: [apiKeys.strategy, sessionAuth.strategy],
      start: () => {
        apiKeys.start();
        sessionAuth.start();
        retention.start();
      },
      stop: async () => {
        shuttingDown = true;
        sessionAuth.stop();
        await retention.stop();
        await apiKeys.stop();
      },
    };
  },
};
