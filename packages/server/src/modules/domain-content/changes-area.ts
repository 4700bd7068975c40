import type { ModuleSurface, ServerDeps } from '../module-types.js';
import { createChangeRetention } from './changes/change-retention.js';
import { changesActions } from './changes/changes.actions.js';
import { ChangeFeedService } from './changes/changes.service.js';

/**
 * The change feed area of `domain.content` (docs/api.md "Change feed"): its route and the retention
 * that removes old changes in the background. Changes are recorded by the outbox with their events and
 * numbered by the sequencer (changes/change-sequencer.ts), which the webhook worker and feed reads run.
 */
export function setupChangesArea(deps: ServerDeps): ModuleSurface {
  const retention = createChangeRetention({
    db: deps.db,
    clock: deps.clock,
    log: deps.log.child({ area: 'changes' }),
    retentionDays: deps.config.changesRetentionDays,
    intervalSeconds: deps.config.changesRetentionIntervalSeconds,
  });
  return {
    actions: changesActions(new ChangeFeedService({ db: deps.db })),
    start: async () => retention.start(),
    stop: () => retention.stop(),
  };
}
