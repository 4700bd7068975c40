/**
 * The `audit` area (docs/audit.md): the audit log of the client's project (or the instance's, for a
 * client without a project), newest first, paged by an opaque cursor; the NDJSON export; the chain check.
 */
import type { AuditEntry, ListAuditQuery } from '@cms/core';
import { callRoute, routeSpec } from './route-call.js';
import type { CallOptions, Transport } from './transport.js';

/** Filters and page of `audit.list` (all optional). */
export type AuditListQuery = Partial<ListAuditQuery>;
/** Filters of `audit.export` and `audit.iterate`. */
export type AuditFilterQuery = Omit<AuditListQuery, 'limit' | 'cursor' | 'includeRoutine'>;

export function auditArea(t: Transport) {
  const list = (query: AuditListQuery = {}, options?: CallOptions) =>
    callRoute(t, 'audit.list', { query, envelope: 'cursor' }, options);
  return {
    /** One page, newest first; pass `pagination.nextCursor` back as `cursor` for the next. */
    list,
    /** Every matching entry, newest first, page after page. */
    async *iterate(query: AuditListQuery = {}, options?: CallOptions): AsyncGenerator<AuditEntry> {
      let cursor = query.cursor;
      do {
        const page = await list({ ...query, ...(cursor ? { cursor } : {}) }, options);
        yield* page.data;
        cursor = page.pagination.nextCursor ?? undefined;
      } while (cursor);
    },
    /** The NDJSON export, parsed line by line: every matching entry, oldest first. */
    async *export(query: AuditFilterQuery = {}, options?: CallOptions): AsyncGenerator<AuditEntry> {
      // fetchRaw throws the server's CmsError for any answer but a success.
      const response = await t.fetchRaw(routeSpec('audit.export', { query, envelope: 'raw' }, options));
      if (!response.body) return;
      const decoder = new TextDecoder();
      let pending = '';
      for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
        pending += decoder.decode(chunk, { stream: true });
        const lines = pending.split('\n');
        pending = lines.pop() ?? '';
        for (const line of lines) if (line.trim() !== '') yield JSON.parse(line) as AuditEntry;
      }
      if (pending.trim() !== '') yield JSON.parse(pending) as AuditEntry;
    },
    /** Checks the hash chain: `{ ok, checked, firstBrokenId }`. */
    verify: (options?: CallOptions) => callRoute(t, 'audit.verify', {}, options),
  };
}
