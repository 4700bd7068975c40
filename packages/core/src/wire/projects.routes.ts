/** Project and project settings routes (decisions.md §4). */
import { type Static, Type } from 'typebox';
import { MAX_PREVIEW_URL_TEMPLATE_LENGTH } from '../preview/preview-url.js';
import { TYPE_NAME_PATTERN } from '../schema/schema-definition.js';
import { defineRoute } from './define-route.js';
import { IMAGE_DIMENSION_CAP, IMAGE_INPUT_PIXELS_CAP, ImagePresetsSchema } from './media-image.routes.js';
import { Nullable, PROJECT_SLUG_PATTERN, StringMap, Timestamp } from './shapes.js';

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

/** Most per-type preview address templates one project may hold. */
export const MAX_PREVIEW_URL_TYPES = 200;

/** The keys of `previewUrls`: content type names, as a schema sync accepts them. */
const PreviewUrlTypeKey = { pattern: TYPE_NAME_PATTERN.source, description: 'a content type name' };

/** Settings of a project (`GET`/`PUT /api/v1/settings`, project from `X-CMS-Project`). */
export const ProjectSettingsSchema = Type.Object({
  mediaImageMaxBytes: Nullable(Type.Integer()),
  /** Named image transforms (`?preset=`); null: the defaults (docs/api.md "Image transforms"). */
  mediaImagePresets: Nullable(ImagePresetsSchema),
  /** Largest `w` or `h` of a transform; null: the default, 4096. */
  mediaImageMaxDimension: Nullable(Type.Integer()),
  /** Originals with more pixels are not transformed (IMAGE_TOO_LARGE); null: the default, 50 000 000. */
  mediaImageMaxInputPixels: Nullable(Type.Integer()),
  /** Live preview address template (`{path}`, `{locale}`, `{type}`, `{token}`); null: no live preview. */
  previewUrl: Nullable(Type.String()),
  /** Per content type, a template that replaces `previewUrl` for that type; null: none. */
  previewUrls: Nullable(StringMap(PreviewUrlTypeKey, Type.String())),
});
export type ProjectSettings = Static<typeof ProjectSettingsSchema>;

/** Body of `PUT /api/v1/settings`: null for "not set"; an image setting left out keeps its value. */
export const PutProjectSettingsBodySchema = Type.Object(
  {
    // Images (by detected type) larger than this are refused with PAYLOAD_TOO_LARGE; null: no extra limit.
    mediaImageMaxBytes: Nullable(Type.Integer({ minimum: 1, maximum: Number.MAX_SAFE_INTEGER })),
    mediaImagePresets: Type.Optional(Nullable(ImagePresetsSchema)),
    mediaImageMaxDimension: Type.Optional(Nullable(Type.Integer({ minimum: 16, maximum: IMAGE_DIMENSION_CAP }))),
    mediaImageMaxInputPixels: Type.Optional(
      Nullable(Type.Integer({ minimum: 1_000_000, maximum: IMAGE_INPUT_PIXELS_CAP })),
    ),
    // Checked by the service (an http(s) URL once its placeholders are filled): INVALID_INPUT otherwise.
    previewUrl: Type.Optional(Nullable(Type.String({ minLength: 1, maxLength: MAX_PREVIEW_URL_TEMPLATE_LENGTH }))),
    previewUrls: Type.Optional(
      Nullable(
        StringMap(PreviewUrlTypeKey, Type.String({ minLength: 1, maxLength: MAX_PREVIEW_URL_TEMPLATE_LENGTH }), {
          maxProperties: MAX_PREVIEW_URL_TYPES,
        }),
      ),
    ),
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
  summary: 'Read the settings of the project in X-CMS-Project (media image limits and presets, live preview address)',
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

/** Body of `PATCH /api/v1/settings`: only the settings named change (null unsets one); the others keep their values. */
export const PatchProjectSettingsBodySchema = Type.Partial(PutProjectSettingsBodySchema, {
  additionalProperties: false,
});

export const projectsSettingsPatchRoute = defineRoute({
  id: 'projects.settings.patch',
  kind: 'command',
  method: 'PATCH',
  path: '/api/v1/settings',
  summary: 'Change the named project settings (null unsets one); the settings left out keep their values',
  target: 'project',
  request: { body: PatchProjectSettingsBodySchema },
  response: { status: 200, envelope: 'single', schema: ProjectSettingsSchema },
});
