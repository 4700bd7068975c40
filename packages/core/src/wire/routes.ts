/**
 * Every route contract, keyed by action id: what clients import for method, path and types.
 * Each `<area>.routes.ts` is listed once here; its exported contracts are picked up by shape.
 */
import * as apiKeys from './api-keys.routes.js';
import * as audit from './audit.routes.js';
import * as auth from './auth.routes.js';
import * as catalog from './catalog.routes.js';
import * as changes from './changes.routes.js';
import * as cliAuth from './cli-auth.routes.js';
import * as content from './content.routes.js';
import * as contentBatch from './content-batch.routes.js';
import type { RouteContract, RouteInput } from './define-route.js';
import * as environments from './environments.routes.js';
import * as health from './health.routes.js';
import * as invites from './invites.routes.js';
import * as me from './me.routes.js';
import * as media from './media.routes.js';
import * as mediaImage from './media-image.routes.js';
import * as mfa from './mfa.routes.js';
import * as migrations from './migrations.routes.js';
import * as presence from './presence.routes.js';
import * as projects from './projects.routes.js';
import * as promote from './promote.routes.js';
import * as referrers from './referrers.routes.js';
import * as releases from './releases.routes.js';
import * as schema from './schema.routes.js';
import * as search from './search.routes.js';
import * as setup from './setup.routes.js';
import * as sso from './sso.routes.js';
import * as users from './users.routes.js';
import * as versions from './versions.routes.js';
import * as webhooks from './webhooks.routes.js';

const areas = {
  content,
  contentBatch,
  referrers,
  presence,
  versions,
  search,
  schema,
  media,
  mediaImage,
  webhooks,
  migrations,
  environments,
  promote,
  releases,
  changes,
  projects,
  me,
  mfa,
  catalog,
  health,
  auth,
  audit,
  setup,
  invites,
  users,
  apiKeys,
  sso,
  cliAuth,
};

type Areas = typeof areas;
type RoutesIn<M> = Extract<M[keyof M], RouteContract>;
type AnyRoute = { [A in keyof Areas]: RoutesIn<Areas[A]> }[keyof Areas];

/** A value exported by an area file that is a route contract (schemas and constants are not). */
function isRoute(value: unknown): value is RouteContract {
  if (typeof value !== 'object' || value === null) return false;
  const candidate = value as Partial<RouteContract>;
  return typeof candidate.id === 'string' && typeof candidate.path === 'string' && candidate.request !== undefined;
}

/** Every route contract, in declaration order. */
export const allRoutes: readonly RouteContract[] = Object.values(areas).flatMap((area) =>
  Object.values(area).filter(isRoute),
);

/** Every route by action id. */
export const routes = Object.fromEntries(allRoutes.map((route) => [route.id, route])) as {
  [R in AnyRoute as R['id']]: R;
};

export type RouteId = keyof typeof routes;

/** The contract of one route by id. */
export type RouteOf<Id extends RouteId> = (typeof routes)[Id];

/** The body a client sends to one route by id: its contract's input, never typed by hand. */
export type RouteBody<Id extends RouteId> = RouteInput<RouteOf<Id>> extends { body: infer B } ? B : never;
