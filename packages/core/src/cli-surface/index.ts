/** Modules' command-line surfaces (`@cms/core/cli-surface`): light, for the CLI's start-up. */
import type { ModuleCliSurface } from './cli-surface.js';
import { coreSystemCli } from './core-system.cli.js';
import { domainContentCli } from './domain-content.cli.js';

export * from './cli-surface.js';
export { coreSystemCli } from './core-system.cli.js';
export { domainContentCli } from './domain-content.cli.js';

/** The command-line surfaces of the first-party modules, by manifest id order. */
export const FIRST_PARTY_CLI: readonly ModuleCliSurface[] = [coreSystemCli, domainContentCli];
