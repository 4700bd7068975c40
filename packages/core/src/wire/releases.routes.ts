/**
 * Release routes (decisions.md §8 "Releases", docs/api.md "Releases"): a named set of documents, each
 * with an action, published together in one transaction, now or at a scheduled instant.
 */
import { type Static, Type } from 'typebox';
import { defineRoute } from './define-route.js';
import { LimitQuery, Nullable, OffsetQuery, StringEnum, Timestamp, Uuid, WithDefault } from './shapes.js';

/** Most documents one release holds (and one `POST /releases/{id}/items` adds). */
export const MAX_RELEASE_ITEMS = 10_000;
/** Longest title and description. */
export const MAX_RELEASE_TITLE = 200;
export const MAX_RELEASE_DESCRIPTION = 2_000;
/** Default and largest page of the releases list. */
export const RELEASES_PAGE_DEFAULT = 20;
export const RELEASES_PAGE_MAX = 100;

export const RELEASE_STATUSES = ['open', 'scheduled', 'publishing', 'published', 'failed', 'reverted'] as const;
export const ReleaseStatusSchema = StringEnum(RELEASE_STATUSES);
export type ReleaseStatus = Static<typeof ReleaseStatusSchema>;

export const ReleaseActionSchema = StringEnum(['publish', 'unpublish']);
export type ReleaseAction = Static<typeof ReleaseActionSchema>;

/** One document of a release, with what the release does to it and how it stands now. */
export const ReleaseItemSchema = Type.Object({
  documentId: Uuid,
  action: ReleaseActionSchema,
  type: Type.String(),
  path: Type.String(),
  locale: Type.String(),
  /** The document's draft revision when it was added. */
  draftRevision: Type.Integer(),
  /** The draft changed since it was added: what publishes is not what was reviewed. */
  changedSinceAdded: Type.Boolean(),
  /** Why this item kept the release from publishing (status `failed`), else null. */
  error: Nullable(Type.String()),
  /** The published version before the release went out (null: not published then, or not yet out). */
  previousVersion: Nullable(Type.Integer()),
  /** The published version the release left (null: unpublished, or not yet out). */
  publishedVersion: Nullable(Type.Integer()),
});
export type ReleaseItem = Static<typeof ReleaseItemSchema>;

const releaseProperties = {
  id: Uuid,
  title: Type.String(),
  description: Nullable(Type.String()),
  status: ReleaseStatusSchema,
  /** The UTC instant it is scheduled for (status `scheduled`), else null. */
  scheduledAt: Nullable(Timestamp),
  /** The IANA time zone the instant was chosen in, for display. */
  timeZone: Nullable(Type.String()),
  createdBy: Type.String(),
  createdAt: Timestamp,
  publishedAt: Nullable(Timestamp),
  /** The release this one undoes (made by `revert`), else null. */
  revertOf: Nullable(Uuid),
  /** The release that undid this one, else null. */
  revertedBy: Nullable(Uuid),
  itemCount: Type.Integer(),
};

/** A release with its items. */
export const ReleaseSchema = Type.Object({ ...releaseProperties, items: Type.Array(ReleaseItemSchema) });
export type Release = Static<typeof ReleaseSchema>;

/** A release in the list: everything but the items (`itemCount` counts them). */
export const ReleaseSummarySchema = Type.Object(releaseProperties);
export type ReleaseSummary = Static<typeof ReleaseSummarySchema>;

/** `POST /releases` body. */
export const CreateReleaseBodySchema = Type.Object(
  {
    title: Type.String({ minLength: 1, maxLength: MAX_RELEASE_TITLE }),
    description: Type.Optional(Type.String({ maxLength: MAX_RELEASE_DESCRIPTION })),
  },
  { additionalProperties: false },
);
export type CreateReleaseBody = Static<typeof CreateReleaseBodySchema>;

/** `POST /releases/{id}/items` body: adding a document again replaces its action. */
export const AddReleaseItemsBodySchema = Type.Object(
  {
    items: Type.Array(Type.Object({ documentId: Uuid, action: ReleaseActionSchema }, { additionalProperties: false }), {
      minItems: 1,
      maxItems: MAX_RELEASE_ITEMS,
    }),
  },
  { additionalProperties: false },
);
export type AddReleaseItemsBody = Static<typeof AddReleaseItemsBodySchema>;

/** `POST /releases/{id}/schedule` body. */
export const ScheduleReleaseBodySchema = Type.Object(
  {
    scheduledAt: Timestamp,
    /** IANA name (`Europe/Paris`); defaults to `UTC`. */
    timeZone: Type.Optional(Type.String({ minLength: 1, maxLength: 64 })),
  },
  { additionalProperties: false },
);
export type ScheduleReleaseBody = Static<typeof ScheduleReleaseBodySchema>;

export const ReleaseIdParamsSchema = Type.Object({ id: Uuid }, { additionalProperties: false });
export const ReleaseItemParamsSchema = Type.Object({ id: Uuid, documentId: Uuid }, { additionalProperties: false });

/** `GET /releases` query: newest first, optionally one status. */
export const ReleasesQuerySchema = Type.Object(
  {
    status: Type.Optional(ReleaseStatusSchema),
    limit: WithDefault(LimitQuery(RELEASES_PAGE_DEFAULT, RELEASES_PAGE_MAX), RELEASES_PAGE_DEFAULT),
    offset: WithDefault(OffsetQuery, 0),
  },
  { additionalProperties: false },
);

/** `POST /releases/run-due` answer: the releases this call published or failed. */
export const RunDueResultSchema = Type.Object({
  published: Type.Array(Uuid),
  failed: Type.Array(Uuid),
});
export type RunDueResult = Static<typeof RunDueResultSchema>;

export const releasesCreateRoute = defineRoute({
  id: 'releases.create',
  kind: 'command',
  method: 'POST',
  path: '/api/v1/releases',
  summary: 'Create an open release',
  target: 'environment',
  request: { body: CreateReleaseBodySchema },
  response: { status: 201, envelope: 'single', schema: ReleaseSchema },
});

export const releasesListRoute = defineRoute({
  id: 'releases.list',
  kind: 'query',
  method: 'GET',
  path: '/api/v1/releases',
  summary: 'List releases, newest first',
  target: 'environment',
  request: { query: ReleasesQuerySchema },
  response: { status: 200, envelope: 'paginated', schema: ReleaseSummarySchema },
});

export const releasesGetRoute = defineRoute({
  id: 'releases.get',
  kind: 'query',
  method: 'GET',
  path: '/api/v1/releases/{id}',
  summary: 'Get a release with its items and their state',
  target: 'environment',
  request: { params: ReleaseIdParamsSchema },
  response: { status: 200, envelope: 'single', schema: ReleaseSchema },
});

export const releasesAddItemsRoute = defineRoute({
  id: 'releases.items.add',
  kind: 'command',
  method: 'POST',
  path: '/api/v1/releases/{id}/items',
  summary: 'Add documents to a release (or change their action)',
  target: 'environment',
  request: { params: ReleaseIdParamsSchema, body: AddReleaseItemsBodySchema },
  response: { status: 200, envelope: 'single', schema: ReleaseSchema },
  errors: ['RELEASE_STATE_CONFLICT'],
});

export const releasesRemoveItemRoute = defineRoute({
  id: 'releases.items.remove',
  kind: 'command',
  method: 'DELETE',
  path: '/api/v1/releases/{id}/items/{documentId}',
  summary: 'Take a document out of a release',
  target: 'environment',
  request: { params: ReleaseItemParamsSchema },
  response: { status: 200, envelope: 'single', schema: ReleaseSchema },
  errors: ['RELEASE_STATE_CONFLICT'],
});

export const releasesPublishRoute = defineRoute({
  id: 'releases.publish',
  kind: 'command',
  method: 'POST',
  path: '/api/v1/releases/{id}/publish',
  summary: 'Publish a release now: every item or none',
  target: 'environment',
  request: { params: ReleaseIdParamsSchema },
  response: { status: 200, envelope: 'single', schema: ReleaseSchema },
  errors: ['RELEASE_STATE_CONFLICT'],
});

export const releasesScheduleRoute = defineRoute({
  id: 'releases.schedule',
  kind: 'command',
  method: 'POST',
  path: '/api/v1/releases/{id}/schedule',
  summary: 'Schedule a release for an instant',
  target: 'environment',
  request: { params: ReleaseIdParamsSchema, body: ScheduleReleaseBodySchema },
  response: { status: 200, envelope: 'single', schema: ReleaseSchema },
  errors: ['RELEASE_STATE_CONFLICT'],
});

export const releasesUnscheduleRoute = defineRoute({
  id: 'releases.unschedule',
  kind: 'command',
  method: 'POST',
  path: '/api/v1/releases/{id}/unschedule',
  summary: 'Take a scheduled release back to open',
  target: 'environment',
  request: { params: ReleaseIdParamsSchema },
  response: { status: 200, envelope: 'single', schema: ReleaseSchema },
  errors: ['RELEASE_STATE_CONFLICT'],
});

export const releasesRevertRoute = defineRoute({
  id: 'releases.revert',
  kind: 'command',
  method: 'POST',
  path: '/api/v1/releases/{id}/revert',
  summary: 'Publish the inverse of a published release; answers the new release',
  target: 'environment',
  request: { params: ReleaseIdParamsSchema },
  response: { status: 200, envelope: 'single', schema: ReleaseSchema },
  errors: ['RELEASE_STATE_CONFLICT'],
});

export const releasesRunDueRoute = defineRoute({
  id: 'releases.runDue',
  kind: 'command',
  method: 'POST',
  path: '/api/v1/releases/run-due',
  summary: 'Publish the releases of this environment whose scheduled time has come, once',
  target: 'environment',
  request: {},
  response: { status: 200, envelope: 'single', schema: RunDueResultSchema },
});
