import type { ServerModule } from '../module-types.js';

/** `domain.content`: schema registry, documents, media, webhooks, environments clone/promote, search, migrations. */
export const domainContentModule: ServerModule = {
  manifest: { id: 'domain.content', version: '1.0.0', apiVersion: '1', kind: 'domain', dependsOn: ['core.system'] },
  async setup() {
    return { actions: [] };
  },
};
