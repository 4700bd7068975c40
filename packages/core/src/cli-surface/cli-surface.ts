/**
 * A module's command-line surface (interface.md "Modules"): action aliases (`cms settings set` for
 * `projects.settings.patch`), output formatters (the action's answer for humans; `--json` still
 * prints the data) and preflight hooks (checks the CLI runs before it sends the request). Declared
 * here, once per first-party module, so the server (catalog hints) and the CLI (its command table,
 * without asking a server) read the same table. Imports nothing heavy: `cms --help` loads it.
 */
import { CAPABILITY_SCOPES, type Capability } from '../auth/scopes.js';
import { routeTable } from '../wire/route-table.js';

/**
 * A check before the action: `schema-hash` (the config's schema is the server's, else `cms schema
 * sync`), `capability:<name>` (the key has this capability of `GET /me`, else nothing is sent).
 */
export type CliPreflight = 'schema-hash' | `capability:${Capability}`;

/** How the alias takes the request: flags from the request schema, a JSON file, or nothing. */
export type CliInputMode = 'flags' | 'file' | 'none';

/** Prints an action's answer for humans: one string per line (the CLI colours nothing here). */
export type CliFormatter = (data: unknown) => string[];

export interface CliAlias {
  /** The command: one or two lowercase words (`settings set`). */
  command: string;
  /** The catalog action it calls (`projects.settings.patch`). */
  action: string;
  /** The line `cms --help` shows. */
  summary: string;
  inputMode: CliInputMode;
  format?: CliFormatter;
  preflight?: readonly CliPreflight[];
  examples?: readonly string[];
  /**
   * What each argument and flag does, by request property name (`previewUrl`), for `--help`: the
   * flag's type, choices and default are added by the CLI from the request schema.
   */
  options?: Readonly<Record<string, string>>;
}

export interface ModuleCliSurface {
  /** The manifest id of the module that declares it. */
  moduleId: string;
  aliases: readonly CliAlias[];
}

/** A command-line surface that cannot be mounted; the server refuses to start and the CLI to run. */
export class CliSurfaceError extends Error {
  constructor(
    readonly moduleId: string,
    readonly reason: string,
  ) {
    super(`Module "${moduleId}" declares a command-line surface that cannot be mounted: ${reason}`);
    this.name = 'CliSurfaceError';
  }
}

const COMMAND = /^[a-z][a-z0-9-]*( [a-z][a-z0-9-]*)?$/;
const INPUT_MODES = new Set<string>(['flags', 'file', 'none']);

export interface CliSurfaceCheck {
  /** Action ids that exist (default: every route of core's route table). */
  actionIds?: ReadonlySet<string>;
  /** The CLI's own commands (`push`, `schema sync`): an alias may not take one's name. */
  builtIns?: ReadonlySet<string>;
  /** The CLI's own groups (`schema`, `media`): an alias may add a sub-command, not take the name. */
  builtInGroups?: ReadonlySet<string>;
}

/**
 * Checks every alias: the command's shape, a known action and input mode, known preflights, no
 * alias twice and none that takes a built-in command's name. Throws the first problem, naming
 * the module, the alias and what to change.
 */
export function assertCliSurfaces(surfaces: readonly ModuleCliSurface[], check: CliSurfaceCheck = {}): void {
  const actionIds = check.actionIds ?? new Set(Object.keys(routeTable));
  const builtIns = check.builtIns ?? new Set<string>();
  const groups = check.builtInGroups ?? new Set<string>();
  const taken = new Map<string, string>();
  for (const surface of surfaces) {
    const fail = (reason: string): never => {
      throw new CliSurfaceError(surface.moduleId, reason);
    };
    for (const alias of surface.aliases) {
      const name = `alias "${alias.command}"`;
      if (!COMMAND.test(alias.command)) {
        fail(`${name} must be one or two lowercase words, like "settings set"`);
      }
      if (!actionIds.has(alias.action)) fail(`${name} calls the unknown action "${alias.action}"`);
      if (!INPUT_MODES.has(alias.inputMode)) {
        fail(`${name} has the input mode "${String(alias.inputMode)}"; use flags, file or none`);
      }
      for (const preflight of alias.preflight ?? []) {
        const capability = preflight.startsWith('capability:') ? preflight.slice('capability:'.length) : undefined;
        if (preflight !== 'schema-hash' && !(capability && capability in CAPABILITY_SCOPES)) {
          fail(`${name} names the unknown preflight "${preflight}"; use schema-hash or capability:<name>`);
        }
      }
      const [group, leaf] = alias.command.split(' ');
      if (builtIns.has(alias.command) || (leaf === undefined && groups.has(alias.command))) {
        fail(`${name} clashes with the built-in command \`cms ${alias.command}\`; choose another name`);
      }
      if (leaf !== undefined && builtIns.has(group as string)) {
        fail(`${name} would be a sub-command of the built-in command \`cms ${group}\`; choose another group`);
      }
      const owner = taken.get(alias.command);
      if (owner !== undefined) fail(`${name} is already declared by module "${owner}"`);
      taken.set(alias.command, surface.moduleId);
    }
  }
}
