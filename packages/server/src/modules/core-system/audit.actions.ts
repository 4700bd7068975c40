import { Readable } from 'node:stream';
import { auditExportRoute, auditListRoute, auditVerifyRoute, contentActivityListRoute } from '@cms/core';
import { defineAction } from '../../actions/define-action.js';
import type { AuditService } from './audit.service.js';

/**
 * The audit log (`audit:read`): list, NDJSON export, chain check (decisions.md §8); and one document's
 * activity for those who may read its draft (`content:read:draft`).
 */
export function auditActions(audit: AuditService) {
  return [
    defineAction({
      route: auditListRoute,
      permissions: ['audit:read'],
      handler: async ({ query }, ctx) => audit.list(ctx, query),
    }),
    defineAction({
      route: auditExportRoute,
      permissions: ['audit:read'],
      handler: async ({ query }, ctx, { reply }) => {
        const lines = Readable.from(
          (async function* () {
            for await (const entry of audit.export(ctx, query)) yield `${JSON.stringify(entry)}\n`;
          })(),
        );
        reply.code(200).type('application/x-ndjson; charset=utf-8').header('cache-control', 'no-store');
        return reply.send(lines);
      },
    }),
    defineAction({
      route: contentActivityListRoute,
      permissions: ['content:read:draft'],
      handler: async ({ params, query }, ctx) => audit.documentActivity(ctx, params.documentId, query),
    }),
    defineAction({
      route: auditVerifyRoute,
      permissions: ['audit:read'],
      handler: async (_input, ctx) => audit.verify(ctx),
    }),
  ];
}
