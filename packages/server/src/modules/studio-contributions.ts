/**
 * The modules' Studio contributions (core `studio-extensions.ts`): checked at start like the rest of
 * a module (a bad one stops the server, naming module and contribution), then flattened into the
 * list `GET /api/v1/studio/bootstrap` filters per caller.
 */
import {
  isScope,
  routeTable,
  STUDIO_CONTRIBUTION_KINDS,
  STUDIO_RESERVED_PATHS,
  STUDIO_SLOTS,
  type StudioContributionKind,
  type StudioContributions,
  StudioContributionsSchema,
  type StudioExtension,
} from '@cms/core';
import { Value } from 'typebox/value';
import { issueMessage, issuePath, type ValidationIssue } from '../http/validation-messages.js';
import type { ServerModule } from './module-types.js';

/** Thrown for a bad contribution; the loader turns it into the module's ModuleValidationError. */
export class StudioContributionError extends Error {
  constructor(
    readonly moduleId: string,
    reason: string,
  ) {
    super(reason);
    this.name = 'StudioContributionError';
  }
}

const KINDS = new Set<string>(STUDIO_CONTRIBUTION_KINDS);
const SLOTS = new Set<string>(STUDIO_SLOTS);
const ACTION_IDS = new Set(Object.keys(routeTable));
const SETTINGS_PREFIX = '/settings/';

/**
 * The first problem with the contributions' shape, in Ajv's form (what validation-messages words), or
 * null. TypeBox checks the value against the schema directly: compiling the schema with Ajv took about a
 * tenth of every start's CPU time, for a check that runs once per module.
 */
function firstShapeIssue(declared: unknown): ValidationIssue | null {
  if (Value.Check(StudioContributionsSchema, declared)) return null;
  // `additionalProperties: false` is reported twice, first as the bare `false` schema of the property.
  const first = [...Value.Errors(StudioContributionsSchema, declared)].find((error) => error.keyword !== 'boolean');
  if (!first) return { keyword: 'type', instancePath: '', params: {} };
  const params = first.params as Record<string, unknown>;
  // TypeBox names every missing or extra property at once; Ajv (and the wording) one at a time.
  const one = (list: unknown) => (Array.isArray(list) ? list[0] : undefined);
  return {
    keyword: first.keyword,
    instancePath: first.instancePath,
    params: {
      ...params,
      missingProperty: one(params.requiredProperties),
      additionalProperty: one(params.additionalProperties),
    },
    parentSchema: pointer(StudioContributionsSchema, first.schemaPath.replace(/^#/, '')) as Record<string, unknown>,
    data: pointer(declared, first.instancePath),
  };
}

/** The value at a JSON pointer (`/routes/0/id`), or undefined. */
function pointer(value: unknown, path: string): unknown {
  let at = value;
  for (const part of path.split('/').slice(1)) {
    if (at === null || typeof at !== 'object') return undefined;
    at = (at as Record<string, unknown>)[part.replaceAll('~1', '/').replaceAll('~0', '~')];
  }
  return at;
}

type Item = { id?: unknown; [key: string]: unknown };
type Located = { module: string; kind: StudioContributionKind; item: Item };

/**
 * Checks every module's `studio` declaration, alone and together: known kinds and slots, the
 * shape of each contribution, ids unique across modules, no two routes (or settings panels) on one
 * path nor on a Studio page, every nav item pointing at a contributed path, known permissions and
 * action ids. Throws StudioContributionError naming the first problem.
 */
export function assertStudioContributions(modules: readonly ServerModule[]): void {
  const all: Located[] = [];
  for (const module of modules) {
    if (module.studio === undefined) continue;
    all.push(...assertOwn(module.manifest.id, module.studio));
  }
  assertTogether(all);
}

function assertOwn(moduleId: string, studio: unknown): Located[] {
  const fail = (reason: string): never => {
    throw new StudioContributionError(moduleId, reason);
  };
  if (!studio || typeof studio !== 'object' || Array.isArray(studio))
    fail('its Studio contributions must be an object');
  const declared = studio as Record<string, unknown>;
  for (const [kind, list] of Object.entries(declared)) {
    if (!KINDS.has(kind)) {
      fail(`Studio contribution kind "${kind}" is unknown: use ${STUDIO_CONTRIBUTION_KINDS.join(', ')}`);
    }
    if (!Array.isArray(list)) fail(`Studio contributions "${kind}" must be a list`);
    for (const [index, item] of (list as unknown[]).entries()) {
      const label = describe(kind, item, index);
      if (!item || typeof item !== 'object') fail(`Studio contribution ${label} must be an object`);
      const slot = (item as Item).slot;
      if ((kind === 'slotWidgets' || kind === 'settingsPanels') && typeof slot === 'string' && !SLOTS.has(slot)) {
        fail(`Studio contribution ${label} names the unknown slot "${slot}": use ${STUDIO_SLOTS.join(', ')}`);
      }
    }
  }
  const issue = firstShapeIssue(declared);
  if (issue) {
    const [kind, index] = issue.instancePath.split('/').filter(Boolean);
    const item = kind && index !== undefined ? (declared[kind] as unknown[])[Number(index)] : undefined;
    const where = issuePath('', { ...issue, instancePath: issue.instancePath.split('/').slice(3).join('/') });
    fail(
      `Studio contribution ${describe(kind ?? '?', item, Number(index))}: ${where || 'it'} ${issueMessage('', issue)}`,
    );
  }
  const typed = declared as StudioContributions;
  const located: Located[] = [];
  for (const kind of STUDIO_CONTRIBUTION_KINDS) {
    for (const item of typed[kind] ?? []) {
      const label = describe(kind, item, 0);
      for (const permission of item.permissions ?? []) {
        if (!isScope(permission)) fail(`Studio contribution ${label} requires the unknown permission "${permission}"`);
      }
      if (kind === 'actionOverrides' && !ACTION_IDS.has((item as { action: string }).action)) {
        fail(`Studio contribution ${label} overrides the unknown action "${(item as { action: string }).action}"`);
      }
      if (kind === 'settingsPanels' && !(item as { path: string }).path.startsWith(SETTINGS_PREFIX)) {
        fail(`Studio contribution ${label} must have a path under ${SETTINGS_PREFIX}`);
      }
      located.push({ module: moduleId, kind, item: item as Item });
    }
  }
  return located;
}

function assertTogether(all: readonly Located[]): void {
  const ids = new Map<string, Located>();
  const paths = new Map<string, Located>();
  for (const entry of all) {
    const id = String(entry.item.id);
    const label = describe(entry.kind, entry.item, 0);
    const before = ids.get(id);
    if (before) {
      throw new StudioContributionError(
        entry.module,
        `Studio contribution ${label} has the id of a contribution of "${before.module}"; ids must be unique`,
      );
    }
    ids.set(id, entry);
    if (entry.kind !== 'routes' && entry.kind !== 'settingsPanels') continue;
    const path = String(entry.item.path);
    if (entry.kind === 'routes' && isReserved(path)) {
      throw new StudioContributionError(
        entry.module,
        `Studio contribution ${label} takes the Studio's own path ${path}`,
      );
    }
    const clash = paths.get(path);
    if (clash) {
      throw new StudioContributionError(
        entry.module,
        `Studio contribution ${label} takes the path ${path} of ${describe(clash.kind, clash.item, 0)} ("${clash.module}")`,
      );
    }
    paths.set(path, entry);
  }
  for (const entry of all) {
    if (entry.kind !== 'navItems') continue;
    const to = String(entry.item.to);
    if (!paths.has(to)) {
      throw new StudioContributionError(
        entry.module,
        `Studio contribution ${describe(entry.kind, entry.item, 0)} points at ${to}, which no route or settings panel provides`,
      );
    }
  }
}

function isReserved(path: string): boolean {
  return STUDIO_RESERVED_PATHS.some(
    (reserved) => path === reserved || (reserved !== '/' && path.startsWith(`${reserved}/`)),
  );
}

function describe(kind: string, item: unknown, index: number): string {
  const id = (item as Item | null)?.id;
  return typeof id === 'string' && id ? `${kind} "${id}"` : `${kind}[${index}]`;
}

/** Every contribution as the bootstrap sends it, in module order, then by `order` and id per kind. */
export function studioExtensionsOf(modules: readonly ServerModule[]): StudioExtension[] {
  const list: StudioExtension[] = [];
  for (const module of modules) {
    for (const kind of STUDIO_CONTRIBUTION_KINDS) {
      for (const item of module.studio?.[kind] ?? []) {
        list.push({ kind, module: module.manifest.id, ...item } as StudioExtension);
      }
    }
  }
  return list.sort(
    (a, b) =>
      STUDIO_CONTRIBUTION_KINDS.indexOf(a.kind) - STUDIO_CONTRIBUTION_KINDS.indexOf(b.kind) ||
      (a.order ?? 0) - (b.order ?? 0) ||
      a.id.localeCompare(b.id),
  );
}

/** The contributions a caller holding `held` may use: those whose permissions it all holds. */
export function extensionsFor(list: readonly StudioExtension[], held: ReadonlySet<string>): StudioExtension[] {
  return list.filter((extension) => (extension.permissions ?? []).every((permission) => held.has(permission)));
}
