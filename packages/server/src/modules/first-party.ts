import { coreSystemModule } from './core-system/module.js';
import { domainContentModule } from './domain-content/module.js';
import type { ServerModule } from './module-types.js';

/** The modules compiled into the server; no dynamic loading (interface.md "Modules"). */
export const FIRST_PARTY_MODULES: readonly ServerModule[] = [coreSystemModule, domainContentModule];
