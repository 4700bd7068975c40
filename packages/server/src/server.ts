import type { FastifyInstance } from 'fastify';
import type { AnyAction } from './actions/define-action.js';
import { mountActions } from './actions/mount-actions.js';
import { createAuditRecorder } from './audit/audit-recorder.js';
import { auditedDb } from './audit/audited-db.js';
import { type Clock, systemClock } from './clock.js';
import type { ServerConfig } from './config.js';
import { registerAuditHook } from './http/audit-hook.js';
import { registerCompression } from './http/compression.js';
import { createApp, type EarlySlot, type LogStream, registerAccessHooks } from './http/create-app.js';
import { createDeferredCompilers } from './http/deferred-compilers.js';
import { createEarlyReads, NO_EARLY_ANSWER } from './http/early-reads.js';
import { registerRateLimit } from './http/rate-limit.js';
import { registerSecurityHeaders } from './http/security-headers.js';
import { registerStudioStatic } from './http/studio-static.js';
import { withCliHints } from './modules/cli-surface-hints.js';
import { FIRST_PARTY_MODULES } from './modules/first-party.js';
import { loadModules, ModuleValidationError } from './modules/loader.js';
import type { ModuleManifest, ModuleSurface, ServerModule } from './modules/module-types.js';
import { createServiceRegistry } from './modules/service-registry.js';
import { studioExtensionsOf } from './modules/studio-contributions.js';
import type { Db } from './storage/db.js';
import { migrate } from './storage/migrate.js';
import { openDb } from './storage/open-db.js';
import { createPgliteMaintenance } from './storage/pglite-maintenance.js';
import { createInvalidationBus } from './tenancy/invalidation.js';
import { createTargetResolver } from './tenancy/target-resolver.js';

/** A running (or ready to run) server. */
export interface CmsServer {
  app: FastifyInstance;
  db: Db;
  config: ServerConfig;
  /** What the modules have to tell the person starting the server once (setupUrl, devKey), by name. */
  notices: Readonly<Record<string, string>>;
  /** Listens on config.port/host (0 picks a free port); returns the base address. */
  listen(): Promise<string>;
  /** Graceful stop: refuse new requests, finish in-flight ones, stop workers, close the database. */
  close(): Promise<void>;
  /**
   * Route validators and serializers not compiled yet (`pending`), compiled at their first use;
   * `compileAll` compiles them now and returns how many (tests).
   */
  routeSchemas: { pending(): number; compileAll(): number };
}

export interface CreateServerOptions {
  /** Modules to load instead of the first-party list (tests of the loader). */
  modules?: readonly ServerModule[];
  /** An already open database (tests share one); otherwise opened from config. */
  db?: Db;
  /** Where log lines go instead of stdout (tests read them). */
  logStream?: LogStream;
  /** The time as services see it (expiry rules); tests pass a clock they move. Defaults to the real one. */
  clock?: Clock;
  /** The Studio's build folder instead of `packages/studio/dist` (tests of the static serving). */
  studioDir?: string;
}

/** Builds the server: validates modules, opens and migrates the database, mounts every action. */
export async function createServer(config: ServerConfig, options: CreateServerOptions = {}): Promise<CmsServer> {
  const ordered = loadModules(options.modules ?? FIRST_PARTY_MODULES);
  const rawDb = options.db ?? (await openDb(config));
  const audit = createAuditRecorder({ db: rawDb, clock: options.clock ?? systemClock });
  // Services see the audited database: an action's first committed transaction writes its entry.
  const db = auditedDb(rawDb, audit);
  try {
    await migrate(rawDb);
    // Route schemas compile at their route's first request, never all at once (http/deferred-compilers.ts).
    const compilers = createDeferredCompilers();
    const early: EarlySlot = { answer: NO_EARLY_ANSWER };
    const app = createApp(config, {
      compilers,
      early,
      ...(options.logStream ? { logStream: options.logStream } : {}),
    });
    // First of the onSend hooks: every route's own scope runs its hooks after it.
    registerCompression(app);
    // PGlite's stand-in for autovacuum; a no-op on PostgreSQL (docs/operations.md).
    const maintenance = createPgliteMaintenance({
      db: rawDb,
      log: app.log.child({ area: 'maintenance' }),
      intervalMs: config.pgliteMaintenanceIntervalSeconds * 1000,
    });
    const bus = await createInvalidationBus(db, { log: app.log.child({ area: 'invalidation' }) });
    const targets = createTargetResolver(db, bus);
    const actions: AnyAction[] = [];
    const manifests: ModuleManifest[] = ordered.map((module) => module.manifest);
    const studioExtensions = studioExtensionsOf(ordered);
    const registry = createServiceRegistry();
    const surfaces: ModuleSurface[] = [];
    for (const module of ordered) {
      const deps = {
        config,
        db,
        log: app.log,
        bus,
        targets,
        actions: () => actions,
        modules: () => manifests,
        studioExtensions: () => studioExtensions,
        registry,
        clock: options.clock ?? systemClock,
        audit,
      };
      surfaces.push(await module.setup(deps));
    }
    // Two actions with one id would share a catalog entry, permissions and an OpenAPI operation: refuse.
    const ownerOf = new Map<string, string>();
    surfaces.forEach((surface, index) => {
      const moduleId = ordered[index]?.manifest.id ?? '(unnamed)';
      for (const action of withCliHints(moduleId, ordered[index]?.cli, surface.actions ?? [])) {
        const owner = ownerOf.get(action.id);
        if (owner !== undefined) {
          const where = owner === moduleId ? 'this module' : `module "${owner}"`;
          throw new ModuleValidationError(moduleId, `action id "${action.id}" is already declared by ${where}`);
        }
        ownerOf.set(action.id, moduleId);
        actions.push(action);
      }
    });
    // Before the access hooks: the Studio's files are answered without credentials.
    registerSecurityHeaders(app, { publicUrl: config.publicUrl });
    registerStudioStatic(app, options.studioDir ? { root: options.studioDir } : {});
    registerRateLimit(app, { db: rawDb, clock: options.clock ?? systemClock, perMinute: config.rateLimitPerMinute });
    const strategies = surfaces.flatMap((surface) => surface.authStrategies ?? []);
    registerAccessHooks(app, { strategies, targets });
    registerAuditHook(app, { recorder: audit });
    mountActions(app, actions);
    app.addHook('preClose', (done) => {
      for (const surface of surfaces) surface.closing?.();
      done();
    });
    await app.ready();
    early.answer = createEarlyReads({
      reads: surfaces.flatMap((surface) => surface.earlyReads ?? []),
      strategies,
      targets,
      log: app.log,
      publicUrl: config.publicUrl,
    });

    let started = false;
    let closing: Promise<void> | null = null;
    return {
      app,
      db: rawDb,
      config,
      notices: Object.assign({}, ...surfaces.map((surface) => surface.notices ?? {})),
      routeSchemas: { pending: compilers.pending, compileAll: compilers.compileAll },
      async listen() {
        const address = await app.listen({ port: config.port, host: config.host });
        for (const surface of surfaces) await surface.start?.();
        maintenance.start();
        started = true;
        return address;
      },
      close() {
        closing ??= (async () => {
          await app.close();
          await maintenance.stop();
          if (started) for (const surface of [...surfaces].reverse()) await surface.stop?.();
          await bus.close();
          if (!options.db) await rawDb.close();
        })();
        return closing;
      },
    };
  } catch (error: unknown) {
    if (!options.db) await rawDb.close().catch(() => undefined);
    throw error;
  }
}
