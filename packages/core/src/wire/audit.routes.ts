/**
 * Audit log routes (decisions.md §8 "Audit log", docs/audit.md): who changed what, newest first,
 * paged by an opaque cursor; an NDJSON export; a check of the per-project hash chain.
 */
import { type Static, Type } from 'typebox';
import { DocumentIdParamsSchema } from './content.routes.js';
import { defineRoute } from './define-route.js';
import { AnyObject, LimitQuery, Nullable, StringEnum, Timestamp, Uuid, WithDefault } from './shapes.js';

/** Default and largest page of `GET /api/v1/audit`. */
export const AUDIT_PAGE_DEFAULT = 50;
export const AUDIT_PAGE_MAX = 200;
/** Longest opaque cursor accepted. */
export const AUDIT_CURSOR_MAX_LENGTH = 200;

export const AUDIT_OUTCOMES = ['success', 'failure', 'denied'] as const;
export const AuditOutcomeSchema = StringEnum(AUDIT_OUTCOMES);
export type AuditOutcome = Static<typeof AuditOutcomeSchema>;

/** A CLI key (`cms_key_cli_`) is an `apiKey` actor; `system` is the server's own work (retention). */
export const AUDIT_ACTOR_TYPES = ['user', 'apiKey', 'preview', 'anonymous', 'system'] as const;
export const AuditActorTypeSchema = StringEnum(AUDIT_ACTOR_TYPES);
export type AuditActorType = Static<typeof AuditActorTypeSchema>;

/** Who did it: never a secret, only ids and a readable label (an email, a key's name). */
export const AuditActorSchema = Type.Object({
  type: AuditActorTypeSchema,
  id: Type.String(),
  label: Nullable(Type.String()),
});
export type AuditActor = Static<typeof AuditActorSchema>;

/** What it was done to; each part null when the action has none. */
export const AuditTargetSchema = Type.Object({
  project: Nullable(Type.String()),
  environment: Nullable(Type.String()),
  type: Nullable(Type.String()),
  documentId: Nullable(Type.String()),
  locale: Nullable(Type.String()),
  /** Another resource's id (a key, a webhook, a user, a release). */
  id: Nullable(Type.String()),
  /**
   * What to call it, as it was called when the entry was written: a document's title (else its path), a
   * release's title. Absent on entries of actions that name nothing readable, and on older entries.
   */
  label: Type.Optional(Nullable(Type.String())),
});
export type AuditTarget = Static<typeof AuditTargetSchema>;

/** One entry of the audit log. */
export const AuditEntrySchema = Type.Object({
  id: Uuid,
  at: Timestamp,
  actor: AuditActorSchema,
  /** The action id of the catalog (`content.update`), or a sign-in event (`auth.login`). */
  action: Type.String(),
  target: AuditTargetSchema,
  outcome: AuditOutcomeSchema,
  /** The id the server made for the request (its log line's `serverRequestId` when the caller sent one). */
  requestId: Nullable(Type.String()),
  /** The caller's own `X-Request-Id`, as sent (null when none): theirs to correlate, never unique. */
  clientRequestId: Nullable(Type.String()),
  ip: Nullable(Type.String()),
  /** A size-capped description of what changed, secrets redacted (docs/audit.md "Changes"). */
  changes: Nullable(AnyObject),
});
export type AuditEntry = Static<typeof AuditEntrySchema>;

const filters = {
  actor: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
  action: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
  documentId: Type.Optional(Uuid),
  type: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
  from: Type.Optional(Timestamp),
  to: Type.Optional(Timestamp),
  outcome: Type.Optional(AuditOutcomeSchema),
};

/**
 * Routine actions: written to the log (a preview token is a credential handed out, so who obtained one
 * stays on record) but not activity a person reads the lists for: the Studio's live preview renews its
 * token every few minutes and after each save. The lists leave them out unless `includeRoutine=true`, or
 * the list's `action` names one; the export keeps every entry (docs/audit.md "Routine entries").
 */
export const AUDIT_ROUTINE_ACTIONS: readonly string[] = ['content.previewTokens.create'];

/** `includeRoutine` of the lists: `true` lists routine entries (`AUDIT_ROUTINE_ACTIONS`) too. */
const routine = { includeRoutine: WithDefault(Type.Boolean(), false) };

/** A page of entries: its size and the opaque cursor of the page before. */
const page = {
  limit: WithDefault(LimitQuery(AUDIT_PAGE_DEFAULT, AUDIT_PAGE_MAX), AUDIT_PAGE_DEFAULT),
  cursor: Type.Optional(Type.String({ minLength: 1, maxLength: AUDIT_CURSOR_MAX_LENGTH })),
};

/** Query of `GET /api/v1/audit`. */
export const ListAuditQuerySchema = Type.Object({ ...filters, ...routine, ...page }, { additionalProperties: false });
export type ListAuditQuery = Static<typeof ListAuditQuerySchema>;

/** Query of `GET /api/v1/audit/export`: the filters, no page. */
export const ExportAuditQuerySchema = Type.Object(filters, { additionalProperties: false });
/** The filters of the list and the export (decisions.md §8). */
export type AuditFilters = Static<typeof ExportAuditQuerySchema>;

/** `GET /api/v1/audit/verify`: `ok` false names the first entry that does not hold. */
export const AuditVerificationSchema = Type.Object({
  ok: Type.Boolean(),
  checked: Type.Integer(),
  firstBrokenId: Nullable(Type.String()),
});
export type AuditVerification = Static<typeof AuditVerificationSchema>;

export const auditListRoute = defineRoute({
  id: 'audit.list',
  kind: 'query',
  method: 'GET',
  path: '/api/v1/audit',
  summary: "List the audit log of the project (or, without X-CMS-Project, the instance's), newest first",
  target: 'optional',
  request: { query: ListAuditQuerySchema },
  response: { status: 200, envelope: 'cursor', schema: AuditEntrySchema },
  errors: ['INVALID_QUERY_PARAM'],
});

export const auditExportRoute = defineRoute({
  id: 'audit.export',
  kind: 'query',
  method: 'GET',
  path: '/api/v1/audit/export',
  summary: 'Stream the audit log as NDJSON (one entry a line, oldest first)',
  target: 'optional',
  request: { query: ExportAuditQuerySchema },
  response: { status: 200, envelope: 'raw', contentType: 'application/x-ndjson' },
});

export const auditVerifyRoute = defineRoute({
  id: 'audit.verify',
  kind: 'query',
  method: 'GET',
  path: '/api/v1/audit/verify',
  summary: 'Check the hash chain of the audit log',
  target: 'optional',
  request: {},
  response: { status: 200, envelope: 'single', schema: AuditVerificationSchema },
});

/** Query of `GET /api/v1/content/{documentId}/activity`: a page, routine entries on request. */
export const DocumentActivityQuerySchema = Type.Object({ ...routine, ...page }, { additionalProperties: false });
export type DocumentActivityQuery = Static<typeof DocumentActivityQuerySchema>;

/**
 * One document's activity for the people who edit it (`content:read:draft`, not `audit:read`): the
 * entries of the audit log that name it, or that changed it among others (a batch, a release),
 * newest first; `ip` is always null here (docs/audit.md "A document's activity").
 */
export const contentActivityListRoute = defineRoute({
  id: 'content.activity.list',
  kind: 'query',
  method: 'GET',
  path: '/api/v1/content/{documentId}/activity',
  summary: "List a document's activity (its audit entries), newest first",
  target: 'environment',
  request: { params: DocumentIdParamsSchema, query: DocumentActivityQuerySchema },
  response: { status: 200, envelope: 'cursor', schema: AuditEntrySchema },
  errors: ['INVALID_QUERY_PARAM'],
});
