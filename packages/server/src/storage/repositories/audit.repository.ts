import type { AuditEntry, AuditFilters, AuditOutcome } from '@cms/core';
import { entryHash, type HashedFields } from '../../audit/audit-hash.js';
import { type Queryable, READ_ONLY, type Transaction } from '../db.js';

/** The instance chain: what happens outside any project (sign-in, users, keys, projects). */
export const INSTANCE_CHAIN = 'instance';

/** An entry to append: everything but its place in the chain. */
export type NewAuditEntry = Omit<HashedFields, 'chainKey' | 'seq'> & {
  projectId: string | null;
  /** Every document the entry changed when more than its target names (not hashed: an index, like the filter columns). */
  documentIds?: readonly string[];
};

/** A stored entry with its place in the chain. */
export interface AuditRow extends HashedFields {
  prevHash: string;
  hash: string;
  /**
   * The target's parts copied into columns the filters read (`documentId`, `type`): the hash covers
   * `target`, so verification checks these still match it (an edited copy would hide an entry).
   */
  filterColumns: AuditFilterColumns;
}

/** The columns an entry's target is copied into for the filters. */
export interface AuditFilterColumns {
  environment: string | null;
  type: string | null;
  documentId: string | null;
}

const COLUMNS = `chain_key, seq, id, at, actor_type, actor_id, actor_label, action, target, outcome, request_id,
  client_request_id, ip, changes, prev_hash, hash, environment, type_name, document_id`;

/**
 * Appends an entry at the head of its chain. The head row stays locked until the transaction ends,
 * so appends to one chain take turns and each links to the one committed before it.
 */
export async function appendEntry(tx: Transaction, chainKey: string, entry: NewAuditEntry): Promise<AuditRow> {
  // One statement moves the head on (creating it for a chain's first entry) and locks it; it answers
  // the new number and, as the hash is not set here, the hash of the entry before.
  const head = await tx.query<{ last_seq: string; last_hash: string }>(
    `insert into audit_chain_heads (chain_key, last_seq) values ($1, 1)
     on conflict (chain_key) do update set last_seq = audit_chain_heads.last_seq + 1
     returning last_seq, last_hash`,
    [chainKey],
  );
  const moved = head.rows[0] ?? { last_seq: '1', last_hash: '' };
  const prevHash = moved.last_hash;
  const fields: HashedFields = {
    chainKey,
    seq: Number(moved.last_seq),
    id: entry.id,
    at: entry.at,
    actor: entry.actor,
    action: entry.action,
    target: entry.target,
    outcome: entry.outcome,
    requestId: entry.requestId,
    // Left out of the hashed fields when there is none, as in entries written before it existed.
    ...(entry.clientRequestId ? { clientRequestId: entry.clientRequestId } : {}),
    ip: entry.ip,
    changes: entry.changes,
  };
  const hash = entryHash(prevHash, fields);
  const filterColumns: AuditFilterColumns = {
    environment: entry.target.environment ?? null,
    type: entry.target.type ?? null,
    documentId: entry.target.documentId ?? null,
  };
  await tx.query(
    `with entry as (
       insert into audit_entries (chain_key, seq, id, at, project_id, actor_type, actor_id, actor_label, action, target,
         environment, type_name, document_id, outcome, request_id, ip, changes, prev_hash, hash, client_request_id)
       values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19, $20)
     )
     update audit_chain_heads set last_hash = $19 where chain_key = $1`,
    [
      chainKey,
      fields.seq,
      entry.id,
      entry.at,
      entry.projectId,
      entry.actor.type,
      entry.actor.id,
      entry.actor.label,
      entry.action,
      JSON.stringify(entry.target),
      filterColumns.environment,
      filterColumns.type,
      filterColumns.documentId,
      entry.outcome,
      entry.requestId,
      entry.ip,
      entry.changes === null ? null : JSON.stringify(entry.changes),
      prevHash,
      hash,
      fields.clientRequestId ?? null,
    ],
  );
  const documentIds = [...new Set(entry.documentIds ?? [])];
  if (documentIds.length > 1 || (documentIds.length === 1 && documentIds[0] !== filterColumns.documentId)) {
    // One statement for any number: a release of 10,000 documents indexes them all at once.
    await tx.query(
      `insert into audit_entry_documents (chain_key, document_id, seq, environment)
       select $1, d, $2, $3 from unnest($4::text[]) as d on conflict do nothing`,
      [chainKey, fields.seq, filterColumns.environment, documentIds],
    );
  }
  return { ...fields, prevHash, hash, filterColumns };
}

/** Where clauses of the filters, after `chain_key = $1`. */
function filterSql(filters: AuditFilters, params: unknown[]): string {
  const clauses: string[] = [];
  const add = (sql: string, value: unknown) => {
    params.push(value);
    clauses.push(sql.replace('?', `$${params.length}`));
  };
  if (filters.actor) add('actor_id = ?', filters.actor);
  if (filters.action) add('action = ?', filters.action);
  if (filters.documentId) add('document_id = ?', filters.documentId);
  if (filters.type) add('type_name = ?', filters.type);
  if (filters.from) add('at >= ?', filters.from);
  if (filters.to) add('at < ?', filters.to);
  if (filters.outcome) add('outcome = ?', filters.outcome);
  return clauses.map((clause) => ` and ${clause}`).join('');
}

/**
 * One page, newest first, of entries numbered below `beforeSeq` (all when null), leaving out the
 * actions in `exclude` (routine ones).
 */
export async function listEntries(
  q: Queryable,
  chainKey: string,
  filters: AuditFilters,
  beforeSeq: number | null,
  limit: number,
  exclude: readonly string[] = [],
): Promise<AuditRow[]> {
  const params: unknown[] = [chainKey];
  let where = filterSql(filters, params);
  if (exclude.length > 0) {
    params.push(exclude);
    where += ` and action <> all($${params.length}::text[])`;
  }
  if (beforeSeq !== null) {
    params.push(beforeSeq);
    where += ` and seq < $${params.length}`;
  }
  params.push(limit);
  const result = await q.query<RawRow>(
    `select ${COLUMNS} from audit_entries where chain_key = $1${where} order by seq desc limit $${params.length}`,
    params,
    READ_ONLY,
  );
  return result.rows.map(toRow);
}

/**
 * One page, newest first, of the entries of a document in one environment below `beforeSeq`: those
 * whose target names it and those that changed it among others (`audit_entry_documents`). Each side
 * reads its own index newest first and stops at the page's size, so the page costs the same at any
 * size of the log. The actions in `exclude` (routine ones) are left out; they always name their
 * document, so only the first side has them.
 */
export async function listDocumentEntries(
  q: Queryable,
  chainKey: string,
  environment: string,
  documentId: string,
  beforeSeq: number | null,
  limit: number,
  exclude: readonly string[] = [],
): Promise<AuditRow[]> {
  const params: unknown[] = [chainKey, documentId, environment, limit];
  let before = '';
  if (beforeSeq !== null) {
    params.push(beforeSeq);
    before = ` and seq < $${params.length}`;
  }
  let routine = '';
  if (exclude.length > 0) {
    params.push(exclude);
    routine = ` and action <> all($${params.length}::text[])`;
  }
  const result = await q.query<RawRow>(
    `select ${COLUMNS} from audit_entries where chain_key = $1 and seq in (
       select seq from (
         (select seq from audit_entries
          where chain_key = $1 and document_id = $2 and environment = $3${before}${routine} order by seq desc limit $4)
         union
         (select seq from audit_entry_documents
          where chain_key = $1 and document_id = $2 and environment = $3${before} order by seq desc limit $4)
       ) as named order by seq desc limit $4)
     order by seq desc`,
    params,
    READ_ONLY,
  );
  return result.rows.map(toRow);
}

/** A batch, oldest first, of entries numbered above `afterSeq` (export and verification walk with it). */
export async function entriesAfter(
  q: Queryable,
  chainKey: string,
  filters: AuditFilters,
  afterSeq: number,
  limit: number,
): Promise<AuditRow[]> {
  const params: unknown[] = [chainKey];
  const where = filterSql(filters, params);
  params.push(afterSeq, limit);
  const result = await q.query<RawRow>(
    `select ${COLUMNS} from audit_entries where chain_key = $1${where} and seq > $${params.length - 1}
     order by seq limit $${params.length}`,
    params,
    READ_ONLY,
  );
  return result.rows.map(toRow);
}

/** A chain's head: its last number and hash, and where retention cut it. */
export interface ChainHead {
  lastSeq: number;
  lastHash: string;
  prunedThrough: number;
  prunedHash: string;
}

export async function findChainHead(q: Queryable, chainKey: string): Promise<ChainHead | null> {
  const result = await q.query<{ last_seq: string; last_hash: string; pruned_through: string; pruned_hash: string }>(
    'select last_seq, last_hash, pruned_through, pruned_hash from audit_chain_heads where chain_key = $1',
    [chainKey],
    READ_ONLY,
  );
  const row = result.rows[0];
  return row
    ? {
        lastSeq: Number(row.last_seq),
        lastHash: row.last_hash,
        prunedThrough: Number(row.pruned_through),
        prunedHash: row.pruned_hash,
      }
    : null;
}

/** Chains with entries older than the cutoff (retention's work list). */
export async function listChainsOlderThan(q: Queryable, cutoff: Date): Promise<string[]> {
  const result = await q.query<{ chain_key: string }>(
    `select chain_key from audit_chain_heads h
     where exists (select 1 from audit_entries e where e.chain_key = h.chain_key and e.at < $1)`,
    [cutoff.toISOString()],
    READ_ONLY,
  );
  return result.rows.map((row) => row.chain_key);
}

/**
 * Deletes up to `batch` of the oldest entries of a chain written before the cutoff, and records the
 * last one removed in the head so verification starts after it. Returns how many went.
 */
export async function pruneOldest(tx: Transaction, chainKey: string, cutoff: Date, batch: number): Promise<number> {
  await tx.query('select 1 from audit_chain_heads where chain_key = $1 for update', [chainKey]);
  const result = await tx.query<{ seq: string; hash: string }>(
    `delete from audit_entries where chain_key = $1 and seq in (
       select seq from audit_entries where chain_key = $1 and at < $2 order by seq limit $3)
     returning seq, hash`,
    [chainKey, cutoff.toISOString(), batch],
  );
  if (result.rows.length === 0) return 0;
  const last = result.rows.reduce((a, b) => (Number(a.seq) > Number(b.seq) ? a : b));
  // The documents the removed entries indexed go with them (entries below the cut are all gone).
  await tx.query('delete from audit_entry_documents where chain_key = $1 and seq <= $2', [chainKey, Number(last.seq)]);
  await tx.query(
    `update audit_chain_heads set pruned_through = $2, pruned_hash = $3
     where chain_key = $1 and pruned_through < $2`,
    [chainKey, Number(last.seq), last.hash],
  );
  return result.rows.length;
}

interface RawRow {
  chain_key: string;
  seq: string;
  id: string;
  at: Date | string;
  actor_type: string;
  actor_id: string;
  actor_label: string | null;
  action: string;
  target: Record<string, string | null>;
  outcome: string;
  request_id: string | null;
  client_request_id: string | null;
  ip: string | null;
  changes: unknown;
  prev_hash: string;
  hash: string;
  environment: string | null;
  type_name: string | null;
  document_id: string | null;
}

function toRow(row: RawRow): AuditRow {
  return {
    chainKey: row.chain_key,
    seq: Number(row.seq),
    id: row.id,
    at: new Date(row.at).toISOString(),
    actor: { type: row.actor_type, id: row.actor_id, label: row.actor_label },
    action: row.action,
    target: row.target,
    outcome: row.outcome,
    requestId: row.request_id,
    ...(row.client_request_id === null ? {} : { clientRequestId: row.client_request_id }),
    ip: row.ip,
    changes: row.changes ?? null,
    prevHash: row.prev_hash,
    hash: row.hash,
    filterColumns: { environment: row.environment, type: row.type_name, documentId: row.document_id },
  };
}

/** The wire shape of a stored entry. */
export function toAuditEntry(row: AuditRow): AuditEntry {
  return {
    id: row.id,
    at: row.at,
    actor: row.actor as AuditEntry['actor'],
    action: row.action,
    target: row.target as AuditEntry['target'],
    outcome: row.outcome as AuditOutcome,
    requestId: row.requestId,
    clientRequestId: row.clientRequestId ?? null,
    ip: row.ip,
    changes: (row.changes as Record<string, unknown> | null) ?? null,
  };
}
