/**
 * A reload: an editor's stream closes and the next one opens before the server has removed the mark of
 * the first. The departure of the closed stream waits (gated here) until the new stream is open; it must
 * neither remove the mark of a person who is still there nor end their new stream.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { EnvironmentContext, Principal } from '../../src/http/request-context.js';
import { createDocumentEventsService } from '../../src/modules/domain-content/collaboration/document-events.service.js';
import {
  createPresenceService,
  type PresenceService,
} from '../../src/modules/domain-content/collaboration/presence.service.js';
import { createEventsHub } from '../../src/modules/domain-content/reads/preview-events.js';
import { findEnvironment } from '../../src/storage/repositories/environments.repository.js';
import { findProjectBySlug } from '../../src/storage/repositories/projects.repository.js';
import { createInvalidationBus, type InvalidationBus } from '../../src/tenancy/invalidation.js';
import { createDocument, syncSchema } from '../content/fixtures.js';
import { startTestServer, type TestServer } from '../support/test-server.js';

let t: TestServer;
let bus: InvalidationBus;
let docId: string;
let ana: EnvironmentContext;
let bo: EnvironmentContext;

function person(name: string): Principal {
  return {
    type: 'apiKey',
    id: `key-${name}`,
    label: name,
    viaSession: false,
    canAccess: () => true,
    scopesIn: () => new Set(),
  };
}

beforeAll(async () => {
  t = await startTestServer();
  await syncSchema(t);
  docId = (await createDocument(t)).documentId;
  const project = await findProjectBySlug(t.db, 'default');
  const environment = project ? await findEnvironment(t.db, project.id, 'production') : null;
  if (!project || !environment) throw new Error('the default project and environment are missing');
  const target = {
    projectId: project.id,
    projectSlug: project.slug,
    environmentId: environment.id,
    environmentName: environment.name,
    extendsEnvironmentId: null,
    isDefaultEnvironment: true,
  };
  const context = (name: string) =>
    ({
      requestId: name,
      principal: person(name),
      project: target,
      target,
      log: t.server.app.log,
    }) as EnvironmentContext;
  ana = context('Ana');
  bo = context('Bo');
  bus = await createInvalidationBus(t.db);
});
afterAll(async () => {
  await bus?.close();
  await t.close();
});

it('keeps the mark and the new stream of a person whose previous stream closed just before', async () => {
  const presence = createPresenceService({ db: t.db, clock: () => new Date(), bus });
  let openGate: () => void = () => undefined;
  const gate = new Promise<void>((resolve) => {
    openGate = resolve;
  });
  const gated: PresenceService = {
    ...presence,
    depart: async (ctx, input) => {
      await gate;
      return presence.depart(ctx, input);
    },
    leave: async (ctx, input) => {
      await gate;
      return presence.leave(ctx, input);
    },
  };
  const service = createDocumentEventsService({
    presence: gated,
    hub: createEventsHub(bus, 'presence'),
    leftHub: createEventsHub(bus, 'presence-left'),
  });
  const ignore = () => undefined;
  const before = await service.open(ana, { documentId: docId }, ignore, ignore);
  before.stop();
  let ended = false;
  const after = await service.open(ana, { documentId: docId }, ignore, () => {
    ended = true;
  });
  openGate();
  // Whatever the closed stream had queued has run once a presence change has gone round the bus.
  await new Promise((resolve) => setTimeout(resolve, 50));
  await presence.heartbeat(bo, { documentId: docId });
  await new Promise((resolve) => setTimeout(resolve, 50));

  expect(ended).toBe(false);
  expect((await presence.others(bo, { documentId: docId })).editors.map((editor) => editor.name)).toEqual(['Ana']);
  after.stop();
});
