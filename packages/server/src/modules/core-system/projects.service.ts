import { randomUUID } from 'node:crypto';
import {
  CmsError,
  invalidInput,
  type Project,
  type ProjectSettings,
  previewUrlTemplateProblem,
  type Serializable,
} from '@cms/core';
import type { ProjectContext, RequestContext } from '../../http/request-context.js';
import type { Db } from '../../storage/db.js';
import { insertEnvironment } from '../../storage/repositories/environments.repository.js';
import {
  findProjectBySlug,
  insertProjectIfSlugFree,
  listProjects,
  type ProjectRow,
  setProjectSetting,
} from '../../storage/repositories/projects.repository.js';
import type { InvalidationBus } from '../../tenancy/invalidation.js';
import {
  MEDIA_IMAGE_LIMIT_SETTING,
  MEDIA_IMAGE_MAX_DIMENSION_SETTING,
  MEDIA_IMAGE_MAX_INPUT_PIXELS_SETTING,
  MEDIA_IMAGE_PRESETS_SETTING,
  mediaImageLimitOf,
  mediaImagePresetsOf,
  OPTIONAL_SETTINGS,
  PREVIEW_URL_SETTING,
  PREVIEW_URLS_SETTING,
  positiveInteger,
  stringMapSetting,
  stringSetting,
} from '../../tenancy/project-settings.js';
import { DEFAULT_ENVIRONMENT } from './bootstrap.js';

/** A project as answered (core's `Project`, decisions.md §4). */
type ProjectView = Serializable<Project>;

function toView(row: ProjectRow): ProjectView {
  return { slug: row.slug, name: row.name, createdAt: row.createdAt };
}

/** Wire shape of a project's settings: every known setting, null when not set. */
export type ProjectSettingsView = ProjectSettings;

/** Body of a settings PUT: the image transform settings may be left out (kept). */
export type ProjectSettingsInput = Pick<ProjectSettingsView, 'mediaImageMaxBytes'> &
  Partial<Omit<ProjectSettingsView, 'mediaImageMaxBytes'>>;

function toSettingsView(settings: Record<string, unknown>): ProjectSettingsView {
  return {
    mediaImageMaxBytes: mediaImageLimitOf(settings[MEDIA_IMAGE_LIMIT_SETTING]),
    mediaImagePresets: mediaImagePresetsOf(settings[MEDIA_IMAGE_PRESETS_SETTING]),
    mediaImageMaxDimension: positiveInteger(settings[MEDIA_IMAGE_MAX_DIMENSION_SETTING]),
    mediaImageMaxInputPixels: positiveInteger(settings[MEDIA_IMAGE_MAX_INPUT_PIXELS_SETTING]),
    previewUrl: stringSetting(settings[PREVIEW_URL_SETTING]),
    previewUrls: stringMapSetting(settings[PREVIEW_URLS_SETTING]),
  };
}

/**
 * Every live preview address template must be an http(s) URL once filled (decisions.md §8). The
 * route's schema has checked the shapes: each key of `previewUrls` a type name, each value a string.
 */
function assertPreviewUrls(input: Partial<ProjectSettingsView>): void {
  const fields: Record<string, string> = {};
  if (input.previewUrl) {
    const problem = previewUrlTemplateProblem(input.previewUrl);
    if (problem) fields['body.previewUrl'] = problem;
  }
  for (const [type, template] of Object.entries(input.previewUrls ?? {})) {
    const problem = previewUrlTemplateProblem(template);
    if (problem) fields[`body.previewUrls.${type}`] = problem;
  }
  if (Object.keys(fields).length > 0) throw invalidInput(fields);
}

/** The project of `X-CMS-Project` (resolved and access-checked by the request's access steps). */
/** Projects: listed as far as the caller may see them, created with their default environment. */
export function createProjectsService(deps: { db: Db; bus: InvalidationBus }) {
  /**
   * Changes the settings named in `input` (null unsets one) and keeps the others, each key set on its
   * own in one transaction, so two changes of different settings never undo each other.
   */
  async function patchSettings(ctx: ProjectContext, input: Partial<ProjectSettingsView>): Promise<ProjectSettingsView> {
    const { projectSlug } = ctx.project;
    assertPreviewUrls(input);
    const settings = await deps.db.transaction(async (tx) => {
      let latest = await findProjectBySlug(tx, projectSlug).then((row) => row?.settings ?? null);
      for (const key of [MEDIA_IMAGE_LIMIT_SETTING, ...OPTIONAL_SETTINGS] as const) {
        const value = input[key];
        if (latest && value !== undefined) latest = await setProjectSetting(tx, projectSlug, key, value);
      }
      return latest;
    });
    if (!settings) throw new CmsError('PROJECT_NOT_FOUND', `No project "${projectSlug}".`);
    return toSettingsView(settings);
  }

  return {
    async list(ctx: RequestContext): Promise<ProjectView[]> {
      const rows = await listProjects(deps.db);
      return rows.filter((row) => ctx.principal.canAccess(row.slug, null)).map(toView);
    },

    /** Creates a project with environment `production` as its default. */
    async create(_ctx: RequestContext, input: { slug: string; name?: string }): Promise<ProjectView> {
      return deps.db.transaction(async (tx) => {
        const project = await insertProjectIfSlugFree(tx, {
          id: randomUUID(),
          slug: input.slug,
          name: input.name?.trim() || input.slug,
        });
        if (!project) throw invalidInput({ 'body.slug': 'is already taken' });
        await insertEnvironment(tx, {
          id: randomUUID(),
          projectId: project.id,
          name: DEFAULT_ENVIRONMENT,
          extendsId: null,
          isDefault: true,
        });
        // Every process's target cache learns of the change when it commits (tenancy/invalidation.ts).
        await deps.bus.publish(tx, 'targets');
        return toView(project);
      });
    },

    async getSettings(ctx: ProjectContext): Promise<ProjectSettingsView> {
      const { projectSlug } = ctx.project;
      const project = await findProjectBySlug(deps.db, projectSlug);
      if (!project) throw new CmsError('PROJECT_NOT_FOUND', `No project "${projectSlug}".`);
      return toSettingsView(project.settings);
    },

    /** Replaces the settings; they are read fresh where they apply (an upload), so a change counts at once. */
    async putSettings(ctx: ProjectContext, input: ProjectSettingsInput): Promise<ProjectSettingsView> {
      return patchSettings(ctx, input);
    },

    patchSettings,
  };
}

/** The projects service's type, for action factories. */
export type ProjectsService = ReturnType<typeof createProjectsService>;
