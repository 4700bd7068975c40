/**
 * `GET /content/{documentId}/preview-events` (docs/live-preview.md "Server-rendered sites"): for the
 * holder of a valid preview token, a `change` event each time the draft it names is saved, carrying a
 * token for the new draft revision that expires when the presented one does (a stream never extends a
 * token's life), and `expired` when that time comes. Only the site's own origin may listen from a browser.
 */
import {
  CmsError,
  type PreviewChangeEvent,
  type PreviewClaims,
  previewUrlOrigin,
  previewUrlTemplateProblem,
} from '@cms/core';
import type { Clock } from '../../../clock.js';
import type { Queryable } from '../../../storage/db.js';
import { findReadableDocument } from '../../../storage/repositories/content-reads.repository.js';
import { findProjectBySlug, type ProjectRow } from '../../../storage/repositories/projects.repository.js';
import {
  PREVIEW_URL_SETTING,
  PREVIEW_URLS_SETTING,
  stringMapSetting,
  stringSetting,
} from '../../../tenancy/project-settings.js';
import type { TargetResolver } from '../../../tenancy/target-resolver.js';
import type { PreviewEventsHub } from './preview-events.js';
import { signPreviewToken, verifyPreviewToken } from './preview-tokens.js';

/** What a stream sends: an event name and its JSON data. */
export type PreviewEventSink = (event: 'ready' | 'change' | 'expired', data: unknown) => void;

/** An open stream: the origin to allow (CORS), and how to stop it. */
export interface PreviewEventStream {
  allowOrigin: string | null;
  stop(): void;
}

export interface PreviewEventsService {
  open(
    input: { documentId: string; token: string; origin: string | undefined },
    send: PreviewEventSink,
  ): Promise<PreviewEventStream>;
}

/** The origins a project's live preview addresses load from, and the token's own preview URL. */
function previewOrigins(project: ProjectRow, claims: PreviewClaims): Set<string> {
  const templates = [
    stringSetting(project.settings[PREVIEW_URL_SETTING]),
    ...Object.values(stringMapSetting(project.settings[PREVIEW_URLS_SETTING]) ?? {}),
    claims.previewUrl ?? null,
  ];
  return new Set(
    templates
      .filter((template): template is string => template !== null && previewUrlTemplateProblem(template) === null)
      .map(previewUrlOrigin),
  );
}

export function createPreviewEventsService(deps: {
  db: Queryable;
  targets: TargetResolver;
  hub: PreviewEventsHub;
  secret: string | null;
  clock: Clock;
  publicUrl: string;
}): PreviewEventsService {
  const ownOrigin = new URL(deps.publicUrl).origin;
  return {
    async open(input, send) {
      if (!deps.secret) throw new CmsError('PREVIEW_TOKEN_UNAVAILABLE');
      const secret = deps.secret;
      const claims = await verifyPreviewToken(secret, input.token, deps.clock());
      if (!claims) {
        throw new CmsError('UNAUTHORIZED', 'The preview token is invalid or has expired: request a new preview token.');
      }
      if (claims.documentId !== input.documentId) {
        throw new CmsError('FORBIDDEN', 'This preview token is for another document.');
      }
      const project = await deps.targets.findProject(claims.project);
      const environment = project ? await deps.targets.findEnvironment(project, claims.environment) : null;
      if (!project || !environment)
        throw new CmsError('NOT_FOUND', 'The preview token names a project or environment that no longer exists.');
      // Settings are read fresh (the target cache may hold a project row from before a settings change).
      const fresh = await findProjectBySlug(deps.db, project.slug);
      const allowed = previewOrigins(fresh ?? project, claims);
      if (input.origin !== undefined && input.origin !== ownOrigin && !allowed.has(input.origin)) {
        throw new CmsError(
          'FORBIDDEN',
          `Origin ${input.origin} is not the origin of the project's previewUrl: set previewUrl to the site's address.`,
          { origin: input.origin },
        );
      }
      const scope = { projectId: project.id, environmentId: environment.id };
      const read = () => findReadableDocument(deps.db, scope, { id: claims.documentId }, { draft: true });
      const first = await read();
      if (!first) throw new CmsError('NOT_FOUND', `Document ${claims.documentId} not found.`);

      let revision = first.draftRevision;
      let stopped = false;
      let checking: Promise<void> = Promise.resolve();
      const check = async () => {
        const row = await read();
        if (stopped || !row || row.draftRevision === revision) return;
        revision = row.draftRevision;
        const left = claims.exp - Math.floor(deps.clock().getTime() / 1000);
        if (left <= 0) return;
        const { token } = await signPreviewToken(
          secret,
          { ...bindingOf(claims), draftRevision: revision },
          deps.clock(),
          left,
        );
        const event: PreviewChangeEvent = {
          documentId: row.id,
          draftRevision: revision,
          updatedAt: row.updatedAt,
          token,
        };
        if (!stopped) send('change', event);
      };
      // Checks run one after another: a burst of notifications reads the row once per notification at most.
      const unwatch = deps.hub.watch(environment.id, () => {
        checking = checking.then(check).catch(() => undefined);
      });
      const expiry = setTimeout(
        () => {
          send('expired', { documentId: claims.documentId });
          stream.stop();
        },
        Math.max(0, claims.exp * 1000 - deps.clock().getTime()),
      );
      const stream: PreviewEventStream = {
        allowOrigin: input.origin !== undefined && input.origin !== ownOrigin ? input.origin : null,
        stop() {
          if (stopped) return;
          stopped = true;
          clearTimeout(expiry);
          unwatch();
        },
      };
      send('ready', { documentId: claims.documentId, draftRevision: revision });
      return stream;
    },
  };
}

/** The claims a token is bound to, without its times. */
function bindingOf(claims: PreviewClaims) {
  const { iat: _iat, exp: _exp, ...binding } = claims;
  return binding;
}
