/** Project and project settings routes (decisions.md §4). */
import { type Static, Type } from 'typebox';
import { defineRoute } from './define-route.js';
import { Nullable, PROJECT_SLUG_PATTERN, Timestamp } from './shapes.js';

/** Wire shape of a project. */
export const ProjectSchema = Type.Object({ slug: Type.String(), name: Type.String(), createdAt: Timestamp });
export type Project = Static<typeof ProjectSchema>;

/** Body of `POST /api/v1/projects`. */
export const CreateProjectBodySchema = Type.Object(
  {
    slug: Type.String({ pattern: PROJECT_SLUG_PATTERN }),
    name: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
  },
  { additionalProperties: false },
);

/** Settings of a project (`GET`/`PUT /api/v1/settings`, project from `X-CMS-Project`). */
export const ProjectSettingsSchema = Type.Object({ mediaImageMaxBytes: Nullable(Type.Integer()) });
export type ProjectSettings = Static<typeof ProjectSettingsSchema>;

/** Body of `PUT /api/v1/settings`: every setting, null for "not set". */
export const PutProjectSettingsBodySchema = Type.Object(
  {
    // Images (by detected type) larger than this are refused with PAYLOAD_TOO_LARGE; null: no extra limit.
    mediaImageMaxBytes: Nullable(Type.Integer({ minimum: 1, maximum: Number.MAX_SAFE_INTEGER })),
  },
  { additionalProperties: false },
);

export const projectsListRoute = defineRoute({
  id: 'projects.list',
  kind: 'query',
  method: 'GET',
  path: '/api/v1/projects',
  summary: 'List the projects the caller can access',
  target: 'none',
  request: {},
  response: { status: 200, envelope: 'single', schema: Type.Array(ProjectSchema) },
});

export const projectsCreateRoute = defineRoute({
  id: 'projects.create',
  kind: 'command',
  method: 'POST',
  path: '/api/v1/projects',
  summary: 'Create a project with its default environment `production`',
  target: 'none',
  request: { body: CreateProjectBodySchema },
  response: { status: 201, envelope: 'single', schema: ProjectSchema },
});

export const projectsSettingsGetRoute = defineRoute({
  id: 'projects.settings.get',
  kind: 'query',
  method: 'GET',
  path: '/api/v1/settings',
  summary: 'Read the settings of the project in X-CMS-Project (the media image size limit)',
  target: 'project',
  request: {},
  response: { status: 200, envelope: 'single', schema: ProjectSettingsSchema },
});

export const projectsSettingsPutRoute = defineRoute({
  id: 'projects.settings.put',
  kind: 'command',
  method: 'PUT',
  path: '/api/v1/settings',
  summary: 'Replace the project settings: mediaImageMaxBytes limits image uploads (null: no extra limit)',
  target: 'project',
  request: { body: PutProjectSettingsBodySchema },
  response: { status: 200, envelope: 'single', schema: ProjectSettingsSchema },
});
