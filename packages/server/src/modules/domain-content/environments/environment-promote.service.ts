import {
  type ActionInput,
  CmsError,
  type environmentsPromoteRoute,
  type FieldMetadata,
  invalidInput,
  type PromotePlanItem,
  type PromoteResult,
} from '@cms/core';
import type { Clock } from '../../../clock.js';
import type { ProjectContext, ProjectTarget, RequestContext, Target } from '../../../http/request-context.js';
import { type Db, type Transaction, withTransaction } from '../../../storage/db.js';
import { type DocumentRow, sourceText } from '../../../storage/repositories/document-row.js';
import { insertVersion } from '../../../storage/repositories/document-versions.repository.js';
import { insertDocument, markPublished } from '../../../storage/repositories/documents.repository.js';
import {
  listLiveDocuments,
  lockPromotionTarget,
  overwriteDraft,
} from '../../../storage/repositories/environment-promote.repository.js';
import { findEnvironment } from '../../../storage/repositories/environments.repository.js';
import { actorOf } from '../documents/document-context.js';
import { eventDocument } from '../documents/document-events.js';
import { sourceAfterWrite } from '../documents/document-source.js';
import type { Outbox } from '../outbox.js';
import { loadMergedSchema } from '../schema/schema-layers.js';
import { type PlannedPromotion, planPromotion } from './promotion-plan.js';

/** Body of `POST /api/v1/environments/{name}/promote` as validated (core's contract), with the source from the path. */
export type PromoteInput = ActionInput<typeof environmentsPromoteRoute>['body'] & { source: string };

function toItem(planned: PlannedPromotion): PromotePlanItem {
  const { source, action, reason } = planned;
  return {
    documentId: source.id,
    path: source.path,
    locale: source.locale,
    action,
    ...(reason === undefined ? {} : { reason }),
  };
}

/** The source documents to promote: all published ones, or exactly those named (INVALID_INPUT otherwise). */
function selectDocuments(sourceDocuments: readonly DocumentRow[], documentIds: string[] | undefined): DocumentRow[] {
  if (documentIds === undefined) return sourceDocuments.filter((row) => row.publishedVersion !== null);
  const byId = new Map(sourceDocuments.map((row) => [row.id, row]));
  const problems: Record<string, string> = {};
  const selected = new Map<string, DocumentRow>();
  documentIds.forEach((raw, index) => {
    const row = byId.get(raw.toLowerCase());
    if (!row) problems[`body.documentIds[${index}]`] = 'no live document with this id in the source environment';
    else if (row.publishedVersion === null)
      problems[`body.documentIds[${index}]`] = 'is not published: publish it first';
    else selected.set(row.id, row);
  });
  if (Object.keys(problems).length > 0) throw invalidInput(problems);
  return [...selected.values()];
}

/**
 * Promotes published content from one environment of a project to another (decisions.md §4):
 * plan by (path, locale), then, unless a dry run or any conflict, write every create and update
 * as a new published version in the target and record its events, in one transaction.
 */
export function createEnvironmentPromoteService(deps: { db: Db; outbox: Outbox; clock: Clock }) {
  /** An environment of the project as an event target; FORBIDDEN when the caller may not see it. */
  async function resolve(ctx: RequestContext, project: ProjectTarget, name: string, field: string): Promise<Target> {
    if (!ctx.principal.canAccess(project.projectSlug, name)) {
      throw new CmsError('FORBIDDEN', `You have no access to environment "${name}".`);
    }
    const row = await findEnvironment(deps.db, project.projectId, name);
    if (!row) {
      if (field === 'body.target') throw invalidInput({ [field]: `no environment "${name}" in this project` });
      throw new CmsError('ENVIRONMENT_NOT_FOUND', `No environment "${name}" in project "${project.projectSlug}".`);
    }
    return {
      ...project,
      environmentId: row.id,
      environmentName: row.name,
      extendsEnvironmentId: row.extendsId,
      isDefaultEnvironment: row.isDefault,
    };
  }

  /** Writes one create or update in the target the way a publish does, with its events. */
  async function write(
    tx: Transaction,
    ctx: RequestContext,
    route: { from: Target; to: Target },
    planned: PlannedPromotion,
    fields: Record<string, FieldMetadata> | undefined,
  ) {
    const target = route.to;
    const at = deps.clock();
    const by = ctx.principal.id;
    const { source, frontmatter } = planned;
    const body = source.publishedBody ?? '';
    // The source text (decisions.md §8): the target's own, else the source environment's, patched to
    // the promoted content, so that it still reads as the document and keeps the file as written.
    const kept = sourceAfterWrite({
      sent: undefined,
      previous: sourceText(planned.target?.draftSource) ?? sourceText(source.draftSource),
      frontmatter,
      body,
      fields: fields ?? {},
    });
    const draft = planned.target
      ? await overwriteDraft(tx, target, {
          id: planned.targetId,
          format: source.format,
          frontmatter,
          body,
          source: kept,
          by,
          at,
        })
      : await insertDocument(tx, target, {
          id: planned.targetId,
          translationGroupId: planned.translationGroupId,
          type: source.type,
          path: source.path,
          locale: source.locale,
          format: source.format,
          frontmatter,
          body,
          source: kept,
          by,
          at,
        });
    if (!draft) throw new Error(`promoted document ${planned.targetId} vanished under its row lock`);
    const actor = actorOf(ctx);
    const changed = planned.target ? 'content.updated' : 'content.created';
    await deps.outbox.record(tx, target, {
      type: changed,
      actor,
      document: eventDocument(draft),
      publishedVersion: draft.publishedVersion,
    });
    const version = await insertVersion(tx, target, {
      documentId: draft.id,
      version: draft.version + 1,
      frontmatter,
      body,
      publishedAt: at,
      publishedBy: by,
      changeSummary: `Promoted from environment "${route.from.environmentName}"`,
    });
    const published = await markPublished(tx, target, {
      id: draft.id,
      version: version.version,
      frontmatter,
      body,
      by,
      at,
    });
    await deps.outbox.record(tx, target, {
      type: 'content.published',
      actor,
      document: eventDocument(published),
      publishedVersion: published.publishedVersion,
    });
  }

  return {
    async promote(ctx: ProjectContext, input: PromoteInput): Promise<PromoteResult> {
      const { project } = ctx;
      const source = await resolve(ctx, project, input.source, 'params.name');
      const target = await resolve(ctx, project, input.target, 'body.target');
      if (source.environmentId === target.environmentId) {
        throw invalidInput({ 'body.target': 'must differ from the source environment' });
      }
      const apply = !input.dryRun;
      // Runs again from the start when the database aborts it on a deadlock (storage/db.ts).
      return withTransaction(deps.db, async (tx) => {
        if (apply && !(await lockPromotionTarget(tx, target))) {
          throw invalidInput({ 'body.target': `no environment "${input.target}" in this project` });
        }
        const sourceDocuments = await listLiveDocuments(tx, source);
        // Applying locks the target's documents, so no edit slips between plan and write.
        const targetDocuments = await listLiveDocuments(tx, target, { forUpdate: apply });
        const selected = selectDocuments(sourceDocuments, input.documentIds);
        // Effective schemas (layers merged along each `extends` chain): promoted frontmatter is not
        // revalidated, so the target's schema in force must be the one the source's was checked against.
        const targetSchema = await loadMergedSchema(tx, target);
        const sameSchema = (await loadMergedSchema(tx, source))?.schemaHash === targetSchema?.schemaHash;
        const fieldsOf = (type: string) => targetSchema?.resolvedSchema.types.find((t) => t.name === type)?.fields;
        const plan = planPromotion({
          sourceDocuments,
          targetDocuments,
          selected,
          sameSchema,
          sourceName: source.environmentName,
          targetName: target.environmentName,
        });
        const items = plan.map(toItem);
        if (!apply || plan.some((planned) => planned.action === 'conflict')) return { plan: items, applied: false };
        for (const planned of plan) {
          if (planned.action === 'create' || planned.action === 'update')
            await write(tx, ctx, { from: source, to: target }, planned, fieldsOf(planned.source.type));
        }
        return { plan: items, applied: true };
      });
    },
  };
}

/** The promote service's type, for the action factory. */
export type EnvironmentPromoteService = ReturnType<typeof createEnvironmentPromoteService>;
