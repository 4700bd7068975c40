/**
 * A module's command-line surface (`@cms/core/cli-surface`) checked against the actions its setup
 * returned, and turned into the catalog's `cli` hints: the alias is declared once, in the surface.
 */
import { assertCliSurfaces, CliSurfaceError, type ModuleCliSurface } from '@cms/core/cli-surface';
import type { AnyAction } from '../actions/define-action.js';
import { ModuleValidationError } from './loader.js';

/**
 * The module's actions with the `cli` hint of each alias (`alias`, `inputMode`); throws when the
 * surface names an action the module does not mount, or is wrong in shape (the server refuses to start).
 */
export function withCliHints(moduleId: string, surface: ModuleCliSurface | undefined, actions: readonly AnyAction[]) {
  if (!surface) return [...actions];
  if (surface.moduleId !== moduleId) {
    throw new ModuleValidationError(moduleId, `its command-line surface is declared for "${surface.moduleId}"`);
  }
  try {
    assertCliSurfaces([surface], { actionIds: new Set(actions.map((action) => action.id)) });
  } catch (error) {
    if (error instanceof CliSurfaceError) throw new ModuleValidationError(moduleId, error.reason);
    throw error;
  }
  const byAction = new Map(surface.aliases.map((alias) => [alias.action, alias]));
  return actions.map((action) => {
    const alias = byAction.get(action.id);
    return alias ? { ...action, cli: { ...action.cli, alias: alias.command, inputMode: alias.inputMode } } : action;
  });
}
