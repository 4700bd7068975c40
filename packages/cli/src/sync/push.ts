import type { BatchOperation } from '@cms/core';
import { CmsError, isCmsError } from '@cms/sdk';
import type { CmsApi, RemoteDocument } from '../api/cms-api.js';
import { followOperation } from '../api/follow.js';
import { mapLimit } from '../api/limiter.js';
import type { Context } from '../cli/context.js';
import { CliError, EXIT } from '../cli/exit-codes.js';
import { onInterrupt, setInterruptDetails } from '../cli/interrupt.js';
import { confirm } from '../cli/prompt.js';
import type { SyncItem } from './classify.js';
import { DEFAULT_LOCALE } from './file-naming.js';
import type { LocalFile } from './local-files.js';
import { ManifestWriter } from './manifest-writer.js';
import { orderedFrontmatter } from './pull-text.js';
import { landedBatch } from './push-batch-follow.js';
import { groupIdFor, type PushResult, pushOne, reconcile, recordFailure } from './push-document.js';
import { assertKnownPaths, countByStatus, loadSyncState, pathMatcher, type SyncState } from './sync-state.js';

export interface PushOptions {
  dryRun?: boolean;
  force?: boolean;
  ours?: string[] | boolean;
  type?: string[];
}

export type { PushResult };

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
export async function push(ctx: Context, options: PushOptions): Promise<PushReport> {
  const state = await loadSyncState(ctx, {
    remote: false,
    preflight: true,
    ...(options.type ? { typeFilter: options.type } : {}),
  });
  const { manifest } = state;
  assertKnownPaths('--ours', options.ours, state.items);
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
    const s = report.summary;
    ctx.out.log(
      `Interrupted: ${report.results.length} of ${items.length} document(s) done (created ${s.created}, updated ${s.updated}, deleted ${s.deleted}, conflicts ${s.conflict}, failed ${s.failed}), recorded in the manifest. Run \`cms push\` again to send the rest.`,
    );
    setInterruptDetails({ summary: report.summary, results: report.results, total: items.length });
  });
  const stop = () => interrupted;
  const writer = new ManifestWriter(state.manifestFile, manifest);
  // Stats learned by the scan are kept even when nothing is sent: the next run need not re-read.
  if (state.statsLearned) writer.changed();
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
  /** A document the server took: its answer (defaults included) into the file and the manifest. */
  const recordPushed = async (item: SyncItem, doc: RemoteDocument): Promise<void> => {
    await reconcile(state, item.local as LocalFile, doc);
    writer.changed();
    const base = { file: item.file, status: item.status, ...(item.id ? { id: item.id } : {}) };
    record(
      item.status === 'new-local'
        ? { ...base, id: doc.documentId, outcome: 'created' }
        : { ...base, outcome: 'updated' },
    );
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
      const items = batch.items.map((b) => b.item);
      // A late answer is followed until the batch's documents show in the digest (push-batch-follow.ts).
      type Outcome = { answer: typeof answer } | { landed: Map<SyncItem, string> };
      const outcome = await followOperation<Outcome>(ctx, {
        label: `Pushing a batch of ${items.length} document(s)`,
        check: 'cms status',
        start: async () => ({
          answer: await state.api.content.batch(
            batch.items.map((b) => b.operation),
            await state.schemaHash(),
          ),
        }),
        poll: async () => {
          const landed = await landedBatch(state, items);
          return landed ? { landed } : undefined;
        },
      });
      if ('landed' in outcome) {
        for (const [item, id] of outcome.landed) {
          try {
            await recordPushed(item, await state.api.content.get(id));
          } catch (error) {
            await fail(item, error);
          }
          progress(1);
        }
        return;
      }
      answer = outcome.answer;
    } catch (error) {
      if (isCmsError(error) && (error.status === 405 || (error.status === 404 && error.code === 'NOT_FOUND'))) {
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
          throw new CmsError({
            code: result.error.code,
            status: result.status,
            message: result.error.message,
            details: result.error.details,
          });
        }
        await recordPushed(item, result.document);
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
  await state.bases.prune(manifest);
  return report;
}

/**
 * Operations per batch request (`CMS_BATCH_SIZE`, 1 to 100), and at most this many bytes of JSON. 50
 * measured fastest for 10,000 new files (docs/benchmarks.md): the server inserts a batch's creates
 * together, so fewer, larger requests win until one batch's transaction holds its locks too long.
 */
const DEFAULT_BATCH_SIZE = 50;
const BATCH_BYTES = 512 * 1024;
/**
 * Batch requests in flight at most (and never more than --concurrency): each holds one server
 * transaction, so this stays under the server's pool (`DATABASE_POOL_MAX`, default 10), leaving
 * connections for other clients.
 */
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
      source: file.text,
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
      source: file.text,
      draftRevision: item.entry.draftRevision,
    };
  }
  return undefined;
}
