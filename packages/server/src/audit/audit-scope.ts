import { AsyncLocalStorage } from 'node:async_hooks';
import type { AuditActor, AuditOutcome, AuditTarget } from '@cms/core';

/**
 * The audit entry a mutating action is about to write (docs/audit.md "How entries are written"). The
 * dispatcher opens one per command request; the first transaction that commits inside it writes the
 * entry in that same transaction (storage wrapper `audited-db.ts`), so a rolled-back change leaves none.
 * Services add what only they know through the `note*` functions; outside a scope these do nothing.
 */
export interface AuditScope {
  action: string;
  actor: AuditActor;
  /** The project's id, or null for the instance chain. */
  projectId: string | null;
  target: AuditTarget;
  requestId: string | null;
  /** The caller's `X-Request-Id`, when it sent one (docs/audit.md "An entry"). */
  clientRequestId?: string | null;
  ip: string | null;
  changes: Record<string, unknown> | null;
  /**
   * Every document the action changed, when it changed more than the one its target names (a content
   * batch, a release): each one's activity lists the entry (`audit_entry_documents`).
   */
  documentIds?: string[];
  /** `success` unless a service says its committed work is a refusal (a wrong device-flow code that counts). */
  outcome: AuditOutcome;
  /**
   * Set when an earlier entry stands for this request's refusal (a sign-in throttled in a backoff window
   * whose first refusal was written): the refusal writes no entry of its own.
   */
  aggregated?: boolean;
  /** Set once the entry committed (or was written on its own). */
  written: boolean;
  /** Set when the response is on its way: later transactions (background work it started) write nothing. */
  closed: boolean;
}

const storage = new AsyncLocalStorage<AuditScope>();
/** Commands running in a scope now. */
let running = 0;

/**
 * Runs fn with this scope as the current one. When the last command running ends, the storage is
 * disabled until the next one: on Node 20 and 22 an enabled AsyncLocalStorage keeps async hooks on, which
 * every request (reads included) and every promise would pay for. Nothing needs a scope between commands:
 * work a command left running after it answered must write no entry (`closed`), and finds none.
 */
export async function runInAuditScope<T>(scope: AuditScope, fn: () => Promise<T>): Promise<T> {
  running += 1;
  try {
    return await storage.run(scope, fn);
  } finally {
    running -= 1;
    if (running === 0) storage.disable();
  }
}

/** The scope of the action under way, if its entry is still to be written. */
export function openAuditScope(): AuditScope | null {
  const scope = storage.getStore();
  return scope && !scope.written && !scope.closed ? scope : null;
}

/** Services: what changed (redacted and capped when written). */
export function noteAuditChanges(changes: Record<string, unknown>): void {
  const scope = storage.getStore();
  if (scope) scope.changes = changes;
}

/** Services: the parts of the target the request alone does not tell (a created document's id, its type). */
export function noteAuditTarget(target: Partial<AuditTarget>): void {
  const scope = storage.getStore();
  if (scope) scope.target = { ...scope.target, ...target };
}

/**
 * Services: every document the action changed, when it may be more than the one its target names
 * (replaces what was noted before, so a transaction run again notes only its own attempt's documents).
 */
export function noteAuditDocuments(documentIds: readonly string[]): void {
  const scope = storage.getStore();
  if (scope) scope.documentIds = [...documentIds];
}

/** Services: one more part of what happened, beside the request's input (`changes.<key>`). */
export function noteAuditDetail(key: string, value: unknown): void {
  const scope = storage.getStore();
  if (scope) scope.changes = { ...scope.changes, [key]: value };
}

/**
 * Services: this refusal is counted by an earlier entry (a throttled sign-in of a backoff window whose
 * first refusal was written), so it writes none of its own (docs/audit.md "Sign-in events").
 */
export function noteAuditAggregated(): void {
  const scope = storage.getStore();
  if (scope) scope.aggregated = true;
}

/** Identity: who the action turned out to be by (a sign-in names the user it signed in). */
export function noteAuditActor(actor: AuditActor): void {
  const scope = storage.getStore();
  if (scope) scope.actor = actor;
}

/** Services: the work about to commit records a refusal, not a change (the error is thrown after it). */
export function noteAuditOutcome(outcome: AuditOutcome): void {
  const scope = storage.getStore();
  if (scope) scope.outcome = outcome;
}

/** Runs fn outside any action's scope: bookkeeping whose transaction is not the action's change. */
export function outsideAuditScope<T>(fn: () => Promise<T>): Promise<T> {
  return storage.exit(fn);
}

/** The outcome a response status stands for. */
export function outcomeOfStatus(status: number): AuditOutcome {
  if (status < 400) return 'success';
  return status === 401 || status === 403 ? 'denied' : 'failure';
}
