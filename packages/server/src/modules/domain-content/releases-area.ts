import type { ModuleSurface, ServerDeps } from '../module-types.js';
import type { DomainShared } from './domain-shared.js';
import { createReleasePoller } from './releases/release-poller.js';
import { createReleasePublisher } from './releases/release-publisher.js';
import { releaseActions } from './releases/releases.actions.js';
import { ReleasesService } from './releases/releases.service.js';

/**
 * The releases area of `domain.content`: the release routes and the due-release poller, which runs
 * from `start()` (once the server listens) to `stop()`.
 */
export async function setupReleasesArea(deps: ServerDeps, shared: DomainShared): Promise<ModuleSurface> {
  const publisher = createReleasePublisher({ outbox: shared.outbox, schemas: shared.schemas, clock: deps.clock });
  const log = deps.log.child({ area: 'releases' });
  const releases = new ReleasesService({
    db: deps.db,
    clock: deps.clock,
    publisher,
    log,
    statistics: shared.statistics,
    audit: deps.audit,
  });
  const poller = createReleasePoller({
    db: deps.db,
    log,
    clock: deps.clock,
    releases,
    pollIntervalMs: deps.config.releasePollIntervalSeconds * 1000,
  });
  return {
    actions: releaseActions(releases),
    start: () => poller.start(),
    stop: () => poller.stop(),
  };
}
