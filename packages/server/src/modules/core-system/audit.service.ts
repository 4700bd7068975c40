import {
  AUDIT_PAGE_DEFAULT,
  AUDIT_ROUTINE_ACTIONS,
  type AuditEntry,
  type AuditFilters,
  type AuditVerification,
  type CursorPage,
  type DocumentActivityQuery,
  invalidQueryParam,
  type ListAuditQuery,
} from '@cms/core';
import { entryHash } from '../../audit/audit-hash.js';
import type { EnvironmentContext, RequestContext } from '../../http/request-context.js';
import type { Queryable } from '../../storage/db.js';
import {
  type AuditRow,
  entriesAfter,
  findChainHead,
  INSTANCE_CHAIN,
  listDocumentEntries,
  listEntries,
  toAuditEntry,
} from '../../storage/repositories/audit.repository.js';

/** Entries read per query while exporting or verifying (bounded memory at any size of the log). */
export const AUDIT_BATCH = 500;

/** The chain a request reads: its project's, or the instance's without `X-CMS-Project`. */
export function chainOf(ctx: RequestContext): string {
  return ctx.project?.projectId ?? INSTANCE_CHAIN;
}

/** The opaque cursor of a page that ends at this entry number. */
export function encodeCursor(seq: number): string {
  return Buffer.from(`seq:${seq}`, 'utf8').toString('base64url');
}

function decodeCursor(cursor: string): number {
  const match = /^seq:(\d{1,18})$/.exec(Buffer.from(cursor, 'base64url').toString('utf8'));
  const seq = match ? Number(match[1]) : Number.NaN;
  if (!Number.isSafeInteger(seq) || seq < 1) {
    throw invalidQueryParam(
      { cursor: 'is not a cursor this list gave' },
      'The cursor is not one this list gave: pass `pagination.nextCursor` of the previous page as it is.',
    );
  }
  return seq;
}

function filtersOf(query: AuditFilters): AuditFilters {
  return {
    actor: query.actor,
    action: query.action,
    documentId: query.documentId,
    type: query.type,
    from: query.from,
    to: query.to,
    outcome: query.outcome,
  };
}

/** A page of at most `limit` from rows read one past it: the next cursor when there were more. */
function pageOf(rows: AuditRow[], limit: number, toEntry: (row: AuditRow) => AuditEntry): CursorPage<AuditEntry> {
  const page = rows.slice(0, limit);
  const last = page.at(-1);
  return {
    items: page.map(toEntry),
    limit,
    nextCursor: rows.length > limit && last ? encodeCursor(last.seq) : null,
  };
}

/** Reads the audit log: pages, the export, the check of the chain (docs/audit.md). */
export function createAuditService(deps: { db: Queryable }) {
  return {
    /** A page, newest first; keyset on the entry number, so entries written meanwhile never shift it. */
    async list(ctx: RequestContext, query: ListAuditQuery): Promise<CursorPage<AuditEntry>> {
      const before = query.cursor === undefined ? null : decodeCursor(query.cursor);
      const limit = query.limit ?? AUDIT_PAGE_DEFAULT;
      // Routine entries only when asked for, or when the filter names their action.
      const exclude = query.includeRoutine || query.action !== undefined ? [] : AUDIT_ROUTINE_ACTIONS;
      const rows = await listEntries(deps.db, chainOf(ctx), filtersOf(query), before, limit + 1, exclude);
      return pageOf(rows, limit, toAuditEntry);
    },

    /**
     * A document's activity for those who edit it: its entries in this environment, newest first,
     * paged like the list; the client address is left out (docs/audit.md "A document's activity").
     */
    async documentActivity(
      ctx: EnvironmentContext,
      documentId: string,
      query: DocumentActivityQuery,
    ): Promise<CursorPage<AuditEntry>> {
      const before = query.cursor === undefined ? null : decodeCursor(query.cursor);
      const limit = query.limit ?? AUDIT_PAGE_DEFAULT;
      const { projectId, environmentName } = ctx.target;
      const exclude = query.includeRoutine ? [] : AUDIT_ROUTINE_ACTIONS;
      const rows = await listDocumentEntries(
        deps.db,
        projectId,
        environmentName,
        documentId,
        before,
        limit + 1,
        exclude,
      );
      return pageOf(rows, limit, (row) => ({ ...toAuditEntry(row), ip: null }));
    },

    /** Every matching entry, oldest first, a batch at a time. */
    async *export(ctx: RequestContext, query: AuditFilters): AsyncGenerator<AuditEntry> {
      const chain = chainOf(ctx);
      let after = 0;
      for (;;) {
        const rows = await entriesAfter(deps.db, chain, filtersOf(query), after, AUDIT_BATCH);
        for (const row of rows) yield toAuditEntry(row);
        const last = rows.at(-1);
        if (!last || rows.length < AUDIT_BATCH) return;
        after = last.seq;
      }
    },

    /**
     * Walks the chain from where retention cut it: each entry must follow the one before (number and
     * `prev_hash`) and hash to its `hash`; the last must be the head. The first that does not is named.
     */
    async verify(ctx: RequestContext): Promise<AuditVerification> {
      const chain = chainOf(ctx);
      const head = await findChainHead(deps.db, chain);
      if (!head) return { ok: true, checked: 0, firstBrokenId: null };
      let expectedSeq = head.prunedThrough + 1;
      let prevHash = head.prunedHash;
      let checked = 0;
      let last: AuditRow | null = null;
      let after = 0;
      for (;;) {
        const rows = await entriesAfter(deps.db, chain, {}, after, AUDIT_BATCH);
        for (const row of rows) {
          if (!holds(row, expectedSeq, prevHash)) return { ok: false, checked, firstBrokenId: row.id };
          checked += 1;
          prevHash = row.hash;
          expectedSeq += 1;
          last = row;
        }
        const end = rows.at(-1);
        if (!end || rows.length < AUDIT_BATCH) break;
        after = end.seq;
      }
      // Entries missing at the end: the chain breaks after the last one still there.
      if (expectedSeq - 1 !== head.lastSeq || prevHash !== head.lastHash) {
        return { ok: false, checked, firstBrokenId: last?.id ?? null };
      }
      return { ok: true, checked, firstBrokenId: null };
    },
  };
}

function holds(row: AuditRow, expectedSeq: number, prevHash: string): boolean {
  if (row.seq !== expectedSeq || row.prevHash !== prevHash) return false;
  const { prevHash: _prev, hash, filterColumns, ...fields } = row;
  // The filter columns are copies of the target the hash covers: they must still say the same.
  const { environment = null, type = null, documentId = null } = row.target;
  const copied = filterColumns.environment === environment && filterColumns.type === type;
  return copied && filterColumns.documentId === documentId && entryHash(prevHash, fields) === hash;
}

/** The audit service's type, for action factories. */
export type AuditService = ReturnType<typeof createAuditService>;
