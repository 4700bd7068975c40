import { domainContentCli } from '@cms/core/cli-surface';
import { createBulkStatistics } from '../../storage/bulk-statistics.js';
import type { ModuleSurface, ServerModule } from '../module-types.js';
import { setupChangesArea } from './changes-area.js';
import { setupCollaborationArea } from './collaboration-area.js';
import { setupContentArea } from './content-area.js';
import { setupContentReadsArea } from './content-reads-area.js';
import { setupMediaArea } from './media-area.js';
import { createOutbox } from './outbox.js';
import { setupReleasesArea } from './releases-area.js';
import { createSchemaReader } from './schema/schema-reader.js';
import { domainContentStudio } from './studio.contributions.js';
import { setupWebhooksArea } from './webhooks-area.js';

/** `domain.content`: schema registry, documents, media, webhooks, environments clone/promote, search, migrations. */
export const domainContentModule: ServerModule = {
  manifest: { id: 'domain.content', version: '1.0.0', apiVersion: '1', kind: 'domain', dependsOn: ['core.system'] },
  cli: domainContentCli,
  studio: domainContentStudio,
  async setup(deps) {
    const shared = {
      outbox: createOutbox(deps.db),
      schemas: createSchemaReader(deps.db, deps.bus),
      statistics: createBulkStatistics({ db: deps.db, log: deps.log.child({ area: 'statistics' }) }),
    };
    const areas: ModuleSurface[] = [
      await setupContentArea(deps, shared),
      await setupContentReadsArea(deps, shared),
      await setupMediaArea(deps, shared),
      await setupWebhooksArea(deps, shared),
      await setupReleasesArea(deps, shared),
      await setupCollaborationArea(deps, shared),
      setupChangesArea(deps),
    ];
    return {
      actions: areas.flatMap((area) => area.actions ?? []),
      authStrategies: areas.flatMap((area) => area.authStrategies ?? []),
      earlyReads: areas.flatMap((area) => area.earlyReads ?? []),
      start: async () => {
        for (const area of areas) await area.start?.();
      },
      stop: async () => {
        for (const area of [...areas].reverse()) await area.stop?.();
        await shared.statistics.stop();
      },
      closing: () => {
        for (const area of areas) area.closing?.();
      },
    };
  },
};
