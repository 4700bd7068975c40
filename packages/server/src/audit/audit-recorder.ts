import { randomUUID } from 'node:crypto';
import type { AuditActor, AuditOutcome, AuditTarget } from '@cms/core';
import type { Clock } from '../clock.js';
import type { Db, Transaction } from '../storage/db.js';
import { appendEntry, INSTANCE_CHAIN } from '../storage/repositories/audit.repository.js';
import { capChanges, storableText } from './audit-changes.js';
import type { AuditScope } from './audit-scope.js';

/** An entry as the identity code writes it directly (sign-in events). */
export interface AuditEvent {
  action: string;
  actor: AuditActor;
  outcome: AuditOutcome;
  projectId?: string | null;
  target?: Partial<AuditTarget>;
  requestId?: string | null;
  clientRequestId?: string | null;
  ip?: string | null;
  changes?: Record<string, unknown> | null;
  /** Every document the event changed, when more than its target names (docs/audit.md "A document's activity"). */
  documentIds?: readonly string[];
}

/** Writes audit entries: in an open transaction, or on their own. */
export interface AuditRecorder {
  /** Writes the scope's entry in this transaction (the change's own). */
  writeScope(tx: Transaction, scope: AuditScope, outcome: AuditOutcome): Promise<void>;
  /** Writes an entry in this transaction. */
  write(tx: Transaction, event: AuditEvent): Promise<void>;
  /** Writes an entry in a transaction of its own (a failed sign-in has no change to join). */
  writeAlone(event: AuditEvent): Promise<void>;
}

export const EMPTY_TARGET: AuditTarget = {
  project: null,
  environment: null,
  type: null,
  documentId: null,
  locale: null,
  id: null,
};

function storedOrNull(value: string | null | undefined): string | null {
  return value === null || value === undefined ? null : storableText(value);
}

/**
 * The target with text PostgreSQL stores: its parts come from the request's path and query, which a
 * refused request may fill with a NUL or a lone surrogate (the refusal is still an entry).
 */
function storableTarget(target: AuditTarget): AuditTarget {
  const out = { ...target };
  for (const key of Object.keys(out) as (keyof AuditTarget)[]) out[key] = storedOrNull(out[key]);
  return out;
}

/** The recorder over the unwrapped database (its own transactions must not open a scope's entry). */
export function createAuditRecorder(deps: { db: Db; clock: Clock }): AuditRecorder {
  const write = async (tx: Transaction, event: AuditEvent): Promise<void> => {
    const projectId = event.projectId ?? null;
    await appendEntry(tx, projectId ?? INSTANCE_CHAIN, {
      id: randomUUID(),
      at: deps.clock().toISOString(),
      projectId,
      actor: { ...event.actor, id: storableText(event.actor.id), label: storedOrNull(event.actor.label) },
      action: event.action,
      target: storableTarget({ ...EMPTY_TARGET, ...event.target }),
      outcome: event.outcome,
      requestId: event.requestId ?? null,
      clientRequestId: event.clientRequestId ?? null,
      ip: event.ip ?? null,
      changes: capChanges(event.changes ?? null),
      documentIds: event.documentIds ?? [],
    });
  };
  const fromScope = (scope: AuditScope, outcome: AuditOutcome): AuditEvent => ({
    action: scope.action,
    actor: scope.actor,
    outcome,
    projectId: scope.projectId,
    target: scope.target,
    requestId: scope.requestId,
    clientRequestId: scope.clientRequestId,
    ip: scope.ip,
    changes: scope.changes,
    documentIds: scope.documentIds ?? [],
  });
  return {
    write,
    writeScope: (tx, scope, outcome) => write(tx, fromScope(scope, outcome)),
    writeAlone: (event) => deps.db.transaction((tx) => write(tx, event)),
  };
}
