/**
 * `cms push`: sends local changes. Unchanged files (equal hash) cost no request; updates carry the
 * manifest's draftRevision, and a stale one stops that document only (reported as a conflict, exit 5);
 * deletions remove only documents the manifest tracks, after a confirmation, and a document changed on
 * the server since the last sync is never deleted.
 */
import { join } from 'node:path';
import type { BatchOperation } from '@cms/core';
import { ApiError, isApiError } from '../api/api-error.js';
import type { CmsApi, RemoteDocument } from '../api/cms-api.js';
import { mapLimit } from '../api/limiter.js';
import type { Context } from '../cli/context.js';
import { CliError, EXIT } from '../cli/exit-codes.js';
import { onInterrupt } from '../cli/interrupt.js';
import { confirm } from '../cli/prompt.js';
import type { SyncItem } from './classify.js';
import { DEFAULT_LOCALE } from './file-naming.js';
import type { LocalFile } from './local-files.js';
import { writeFileAtomic } from './manifest.js';
import { ManifestWriter } from './manifest-writer.js';
import { entryOf, orderedFrontmatter, remoteText } from './pull.js';
import { countByStatus, loadSyncState, pathMatcher, remoteEntry, type SyncState } from './sync-state.js';

export interface PushOptions {
  dryRun?: boolean;
  force?: boolean;
  ours?: string[] | boolean;
  type?: string[];
}

export interface PushResult {
  file: string;
  status: string;
  outcome: 'created' | 'updated' | 'deleted' | 'skipped' | 'conflict' | 'failed' | 'planned';
  id?: string;
  code?: string;
  message?: string;
  previousFile?: string;
}

export interface PushReport {
  results: PushResult[];
  counts: Record<string, number>;
  summary: Record<PushResult['outcome'], number>;
  dryRun: boolean;
}

const PUSHABLE = new Set([
  'new-local',
  'changed-local',
  'moved-local',
  'deleted-local',
  'changed-both',
  'deleted-remote',
]);

function groupIdFor(state: SyncState, file: LocalFile): string | undefined {
  for (const entry of Object.values(state.manifest.documents)) {
    if (
      entry.type === file.key.type &&
      entry.path === file.key.path &&
      entry.locale !== file.key.locale &&
      entry.translationGroupId
    ) {
      return entry.translationGroupId;
    }
  }
  return undefined;
}

/** After a write, the server may have added defaults: bring them into the file so both sides agree. */
async function reconcile(state: SyncState, file: LocalFile, doc: RemoteDocument): Promise<void> {
  const type = state.typeByName.get(doc.type);
  const remote = remoteEntry(type ?? { name: doc.type, directory: '', localized: false, fields: {} }, doc);
  if (remote.hash !== file.hash && type) {
    await writeFileAtomic(join(state.root, file.diskName), await remoteText(state.root, file.diskName, remote, type));
  }
  state.manifest.documents[doc.documentId] = { ...entryOf(remote), file: file.file };
}

async function createDoc(api: CmsApi, state: SyncState, file: LocalFile): Promise<RemoteDocument> {
  const type = state.typeByName.get(file.key.type);
  const groupId = groupIdFor(state, file);
  return api.content.create(
    {
      type: file.key.type,
      path: file.key.path,
      ...(file.key.locale !== DEFAULT_LOCALE ? { locale: file.key.locale } : {}),
      format: file.key.format,
      frontmatter: orderedFrontmatter(type, file.frontmatter),
      body: file.body,
      ...(groupId ? { translationGroupId: groupId } : {}),
    },
    await state.schemaHash(),
  );
}

export async function push(ctx: Context, options: PushOptions): Promise<PushReport> {
  const state = await loadSyncState(ctx, { remote: false, ...(options.type ? { typeFilter: options.type } : {}) });
  const { manifest } = state;
  const ours = pathMatcher(options.ours);
  const items = state.items.filter((i) => PUSHABLE.has(i.status));
  const report: PushReport = {
    results: [],
    counts: countByStatus(state.items),
    summary: { created: 0, updated: 0, deleted: 0, skipped: 0, conflict: 0, failed: 0, planned: 0 },
    dryRun: Boolean(options.dryRun),
  };
  const record = (result: PushResult) => {
    report.results.push(result);
    report.summary[result.outcome]++;
  };
  if (options.dryRun) {
    for (const item of items)
      record({ file: item.file, status: item.status, outcome: 'planned', ...(item.id ? { id: item.id } : {}) });
    return report;
  }

  const deletions = items.filter((i) => i.status === 'deleted-local' || i.status === 'moved-local');
  const tracked = Object.keys(manifest.documents).length;
  let deletionsAllowed = true;
  const realDeletions = deletions.filter((d) => d.status === 'deleted-local');
  if (realDeletions.length > 0) {
    if (tracked >= 4 && realDeletions.length > tracked / 2 && !options.force) {
      throw new CliError(
        'MASS_DELETION',
        `${realDeletions.length} of the ${tracked} tracked files are gone; push would delete their documents.`,
        {
          exitCode: EXIT.cancelled,
          hint: 'Check that you are in the right folder (and on the right git branch); if this is intended, pass --force.',
          details: { files: realDeletions.map((d) => d.file) },
        },
      );
    }
    deletionsAllowed =
      Boolean(options.force) ||
      (await confirm(
        ctx.prompt,
        `Delete ${realDeletions.length} document(s) whose files are gone (${realDeletions
          .slice(0, 3)
          .map((d) => d.file)
          .join(', ')}${realDeletions.length > 3 ? ', …' : ''}) on the server?`,
        '--force',
      ));
  }

  // Ctrl-C: start nothing more, let the requests in flight finish and record them, then the writer
  // (whose hook runs after this one) flushes the manifest: a re-run sends only what was not sent.
  let interrupted = false;
  let inFlight: Promise<unknown> = Promise.resolve();
  const disposeDrain = onInterrupt(async () => {
    interrupted = true;
    ctx.out.log('Interrupted: finishing the requests in flight (Ctrl-C again stops at once)…');
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([
      inFlight.catch(() => undefined),
      new Promise((done) => {
        timer = setTimeout(done, DRAIN_MS);
        timer.unref();
      }),
    ]);
    clearTimeout(timer);
  });
  const stop = () => interrupted;
  const writer = new ManifestWriter(state.manifestFile, manifest);
  let done = 0;
  const progress = (count: number) => {
    done += count;
    ctx.out.progress('Pushing', done, items.length);
  };
  const fail = (item: SyncItem, error: unknown) => recordFailure(state, item, error, record, writer);
  const run = async (item: SyncItem): Promise<void> => {
    try {
      await pushOne(state, item, { deletionsAllowed, ours: ours(item.file) }, record, writer);
    } catch (error) {
      await fail(item, error);
    }
    progress(1);
  };
  // CMS_BATCH_SIZE=0: one request per document (a server without the route is detected by itself).
  let batchRoute = batchSize() > 0;
  const runBatch = async (batch: Batch): Promise<void> => {
    if (!batchRoute) {
      await mapLimit(
        batch.items.map((b) => b.item),
        ctx.concurrency,
        run,
        stop,
      );
      return;
    }
    let answer: Awaited<ReturnType<CmsApi['content']['batch']>>;
    try {
      answer = await state.api.content.batch(
        batch.items.map((b) => b.operation),
        await state.schemaHash(),
      );
    } catch (error) {
      if (isApiError(error) && (error.status === 405 || (error.status === 404 && error.code === 'NOT_FOUND'))) {
        // A server without `POST /content/batch`: one request per document, as before it existed.
        batchRoute = false;
        await mapLimit(
          batch.items.map((b) => b.item),
          ctx.concurrency,
          run,
          stop,
        );
        return;
      }
      for (const { item } of batch.items) await fail(item, error);
      progress(batch.items.length);
      return;
    }
    for (const [index, { item }] of batch.items.entries()) {
      const result = answer.results[index];
      try {
        if (!result) throw new Error('the server answered fewer results than operations');
        if (!result.ok) {
          throw new ApiError(result.error.code, result.status, result.error.message, result.error.details);
        }
        const doc = result.document as unknown as RemoteDocument;
        await reconcile(state, item.local as LocalFile, doc);
        writer.changed();
        const base = { file: item.file, status: item.status, ...(item.id ? { id: item.id } : {}) };
        record(
          item.status === 'new-local'
            ? { ...base, id: doc.documentId, outcome: 'created' }
            : { ...base, outcome: 'updated' },
        );
      } catch (error) {
        await fail(item, error);
      }
      progress(1);
    }
  };
  /** Sends a phase: creates and plain updates in batches, everything else one request each. */
  const phase = async (phaseItems: SyncItem[]): Promise<void> => {
    if (interrupted) return;
    const batched: BatchItem[] = [];
    const singles: SyncItem[] = [];
    for (const item of phaseItems) {
      const operation = batchOperation(state, item, ours(item.file));
      if (operation) batched.push({ item, operation, bytes: Buffer.byteLength(JSON.stringify(operation)) });
      else singles.push(item);
    }
    const batches = chunk(batched, Math.max(1, batchSize()), BATCH_BYTES);
    const work = Promise.all([
      mapLimit(batches.big, ctx.concurrency, run, stop),
      mapLimit(batches.batches, Math.max(1, Math.min(BATCHES_IN_FLIGHT, ctx.concurrency)), runBatch, stop),
      mapLimit(singles, ctx.concurrency, run, stop),
    ]);
    inFlight = work;
    await work;
  };
  try {
    // Creations of translation siblings need the group id of the first: create default-locale files first.
    const creates = items.filter((i) => i.status === 'new-local');
    const others = items.filter((i) => i.status !== 'new-local');
    const firstOfGroup = new Map<string, SyncItem>();
    for (const item of creates) {
      const key = `${item.local?.key.type}\u0000${item.local?.key.path}`;
      if (!firstOfGroup.has(key) && !groupIdFor(state, item.local as LocalFile)) firstOfGroup.set(key, item);
    }
    const firsts = [...firstOfGroup.values()];
    const firstSet = new Set(firsts);
    const rest = creates.filter((i) => !firstSet.has(i));
    await phase(firsts);
    await phase([...rest, ...others]);
  } finally {
    disposeDrain();
    await writer.close();
  }
  return report;
}

/** Operations per batch request (`CMS_BATCH_SIZE`, 1 to 100), and at most this many bytes of JSON. */
const DEFAULT_BATCH_SIZE = 25;
const BATCH_BYTES = 512 * 1024;
/** Batch requests in flight at most (and never more than --concurrency): each holds one server transaction. */
const BATCHES_IN_FLIGHT = 8;
/** How long Ctrl-C waits for the requests in flight before the manifest is flushed anyway. */
const DRAIN_MS = 20_000;

function batchSize(): number {
  const wanted = Number(process.env.CMS_BATCH_SIZE ?? DEFAULT_BATCH_SIZE);
  return Number.isInteger(wanted) && wanted >= 0 ? Math.min(100, wanted) : DEFAULT_BATCH_SIZE;
}

interface BatchItem {
  item: SyncItem;
  operation: BatchOperation;
  bytes: number;
}

interface Batch {
  items: BatchItem[];
}

/** Groups operations by count and size; one too big for a batch goes alone through the single route. */
function chunk(items: BatchItem[], size: number, maxBytes: number): { batches: Batch[]; big: SyncItem[] } {
  const batches: Batch[] = [];
  const big: SyncItem[] = [];
  let current: BatchItem[] = [];
  let bytes = 0;
  for (const entry of items) {
    if (entry.bytes > maxBytes) {
      big.push(entry.item);
      continue;
    }
    if (current.length >= size || bytes + entry.bytes > maxBytes) {
      batches.push({ items: current });
      current = [];
      bytes = 0;
    }
    current.push(entry);
    bytes += entry.bytes;
  }
  if (current.length > 0) batches.push({ items: current });
  return { batches, big };
}

/** The batch operation of a create or a plain update; undefined for what needs more than one request. */
function batchOperation(state: SyncState, item: SyncItem, ours: boolean): BatchOperation | undefined {
  const file = item.local;
  if (!file) return undefined;
  if (item.status === 'new-local') {
    const groupId = groupIdFor(state, file);
    return {
      op: 'create',
      type: file.key.type,
      path: file.key.path,
      ...(file.key.locale !== DEFAULT_LOCALE ? { locale: file.key.locale } : {}),
      format: file.key.format,
      frontmatter: orderedFrontmatter(state.typeByName.get(file.key.type), file.frontmatter),
      body: file.body,
      ...(groupId ? { translationGroupId: groupId } : {}),
    };
  }
  // `--ours` reads the server's revision first: that stays a request of its own.
  if ((item.status === 'changed-local' || item.status === 'changed-both') && item.entry && !ours) {
    return {
      op: 'update',
      documentId: item.entry.id,
      frontmatter: orderedFrontmatter(state.typeByName.get(item.entry.type), file.frontmatter),
      body: file.body,
      draftRevision: item.entry.draftRevision,
    };
  }
  return undefined;
}

/**
 * Records a document that could not be pushed. A stale revision whose server draft already holds
 * exactly this file (a push interrupted after the server wrote it) is no conflict: the manifest
 * takes the server's revision and nothing is sent.
 */
async function recordFailure(
  state: SyncState,
  item: SyncItem,
  error: unknown,
  record: (r: PushResult) => void,
  writer: ManifestWriter,
): Promise<void> {
  const base = { file: item.file, status: item.status, ...(item.id ? { id: item.id } : {}) };
  if (error instanceof CliError && error.code === 'SERVER_UNREACHABLE') throw error;
  if (!isApiError(error)) {
    record({ ...base, outcome: 'failed', code: 'INTERNAL', message: (error as Error).message });
    return;
  }
  if (error.code === 'CONFLICT' && item.local && item.entry && item.status !== 'deleted-local') {
    const current = await state.api.content.get(item.entry.id).catch(() => undefined);
    const type = state.typeByName.get(item.entry.type);
    if (current && type && remoteEntry(type, current).hash === item.local.hash) {
      await reconcile(state, item.local, current);
      writer.changed();
      record({
        ...base,
        outcome: 'skipped',
        message: `already on the server (revision ${current.draftRevision}); recorded in the manifest`,
      });
      return;
    }
  }
  record({
    ...base,
    outcome: error.code === 'CONFLICT' ? 'conflict' : 'failed',
    code: error.code,
    message: error.message,
  });
}

async function pushOne(
  state: SyncState,
  item: SyncItem,
  flags: { deletionsAllowed: boolean; ours: boolean },
  record: (r: PushResult) => void,
  writer: ManifestWriter,
): Promise<void> {
  const { api, manifest } = state;
  const base = { file: item.file, status: item.status, ...(item.id ? { id: item.id } : {}) };
  if (item.status === 'deleted-remote') {
    record({ ...base, outcome: 'conflict', code: 'DELETED_REMOTELY', message: 'deleted on the server: run cms pull' });
    return;
  }
  if (item.status === 'new-local' && item.local) {
    const doc = await createDoc(api, state, item.local);
    await reconcile(state, item.local, doc);
    writer.changed();
    record({ ...base, id: doc.documentId, outcome: 'created' });
    return;
  }
  if ((item.status === 'changed-local' || item.status === 'changed-both') && item.local && item.entry) {
    let revision = item.entry.draftRevision;
    if (flags.ours) revision = (await api.content.get(item.entry.id)).draftRevision;
    const type = state.typeByName.get(item.entry.type);
    const doc = await api.content.update(
      item.entry.id,
      { frontmatter: orderedFrontmatter(type, item.local.frontmatter), body: item.local.body, draftRevision: revision },
      await state.schemaHash(),
    );
    await reconcile(state, item.local, doc);
    writer.changed();
    record({ ...base, outcome: 'updated' });
    return;
  }
  if (item.status === 'deleted-local' || item.status === 'moved-local') {
    const entry = item.entry;
    if (!entry) return;
    if (item.status === 'moved-local' && item.local) {
      // The API has no path change: the moved file becomes a new document, the old one is deleted.
      const doc = await createDoc(api, state, item.local);
      await reconcile(state, item.local, doc);
      writer.changed();
      record({
        ...base,
        id: doc.documentId,
        outcome: 'created',
        ...(item.previousFile ? { previousFile: item.previousFile } : {}),
      });
    } else if (!flags.deletionsAllowed) {
      record({ ...base, outcome: 'skipped', message: 'deletion declined' });
      return;
    }
    const current = await api.content.get(entry.id).catch((error) => {
      if (isApiError(error) && error.status === 404) return undefined;
      throw error;
    });
    if (current && current.draftRevision !== entry.draftRevision && !flags.ours) {
      record({
        ...base,
        outcome: 'conflict',
        code: 'CONFLICT',
        message: `changed on the server since the last sync (revision ${entry.draftRevision} → ${current.draftRevision}); not deleted`,
      });
      return;
    }
    if (current) await api.content.delete(entry.id);
    delete manifest.documents[entry.id];
    writer.changed();
    if (item.status === 'deleted-local') record({ ...base, outcome: 'deleted' });
    return;
  }
  record({ ...base, outcome: 'skipped' });
}
