import type { ModuleManifest, StudioContributions, StudioExtension } from '@cms/core';
import type { ModuleCliSurface } from '@cms/core/cli-surface';
import type { FastifyBaseLogger } from 'fastify';
import type { AnyAction } from '../actions/define-action.js';
import type { AuditRecorder } from '../audit/audit-recorder.js';
import type { Clock } from '../clock.js';
import type { ServerConfig } from '../config.js';
import type { AuthStrategy } from '../http/authenticate.js';
import type { EarlyRead } from '../http/early-reads.js';
import type { Db } from '../storage/db.js';
import type { InvalidationBus } from '../tenancy/invalidation.js';
import type { TargetResolver } from '../tenancy/target-resolver.js';

/** A module's manifest: core's contract (interface.md "Modules"). */
export type { ModuleManifest };

/** What every module receives: infrastructure, never another module's internals. */
export interface ServerDeps {
  config: ServerConfig;
  db: Db;
  log: FastifyBaseLogger;
  bus: InvalidationBus;
  targets: TargetResolver;
  /** Every mounted action, for the catalog and OpenAPI; complete once all modules are set up. */
  actions: () => readonly AnyAction[];
  /** Manifests of the loaded modules, in mount order. */
  modules: () => readonly ModuleManifest[];
  /** Every module's Studio contributions, validated, for the Studio's bootstrap. */
  studioExtensions: () => readonly StudioExtension[];
  /** Shared services registered by modules earlier in the order (dependencies). */
  registry: ServiceRegistry;
  /** The current time for expiry rules; injected so tests can move it. */
  clock: Clock;
  /** Writes audit entries directly (sign-in events the dispatcher does not see: docs/audit.md). */
  audit: AuditRecorder;
}

/** Services a module offers to the modules that depend on it. */
export interface ServiceRegistry {
  provide<T>(name: string, service: T): void;
  get<T>(name: string): T;
  /** The service, or null when no loaded module provides it (optional collaborations). */
  find<T>(name: string): T | null;
}

/** What a module's setup hands back to the server. */
export interface ModuleSurface {
  actions?: readonly AnyAction[];
  authStrategies?: readonly AuthStrategy[];
  /** Reads answered from memory before routing, when memory can decide every access step (http/early-reads.ts). */
  earlyReads?: readonly EarlyRead[];
  /** Starts background work (workers) once the server listens. */
  start?: () => Promise<void> | void;
  /** Stops background work during graceful shutdown. */
  stop?: () => Promise<void> | void;
  /**
   * Ends long-lived answers (event streams) when a graceful close begins, before the server waits for
   * the requests in flight: an open stream would otherwise hold the close until it ends by itself.
   */
  closing?: () => void;
  /** Things to tell the person starting the server once (a setup address, a new key), by name. */
  notices?: Readonly<Record<string, string>>;
}

/** A first-party module compiled into the server. */
export interface ServerModule {
  manifest: ModuleManifest;
  /**
   * What the module adds to the Studio (routes, nav items, slot widgets, field kinds, editor nodes,
   * action overrides, settings panels), declared statically so it is checked before anything runs.
   */
  studio?: StudioContributions;
  /**
   * What the module adds to the `cms` command line (aliases of its actions, formatters, preflights),
   * declared in `@cms/core/cli-surface` so the CLI reads it without a server; checked at start.
   */
  cli?: ModuleCliSurface;
  setup(deps: ServerDeps): Promise<ModuleSurface> | ModuleSurface;
}
