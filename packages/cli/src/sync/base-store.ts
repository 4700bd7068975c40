/**
 * The base of each tracked file, like git's index: the exact text the file held when it was last
 * synced (what the server had then). Kept content-addressed beside the manifest, in
 * `.cms/<project>.<environment>.base/<sha256 of the text>`, and named by the manifest entry's
 * `base`; `cms status --diff` shows each side against it, and `cms pull` merges three-way with it.
 * Texts no entry names any more are removed at the end of a pull or push.
 */
import { createHash } from 'node:crypto';
import { mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Manifest } from './manifest.js';

const NAME = /^[0-9a-f]{64}$/;

/** Base writes in flight at most: they overlap with the requests a push or pull waits on. */
const WRITES_IN_FLIGHT = 16;

export class BaseStore {
  /** Texts kept or queued by this run: a second put of the same text is free. */
  private readonly known = new Set<string>();
  private readonly queue: Array<{ name: string; text: string }> = [];
  private running = 0;
  private idle: Promise<void> = Promise.resolve();
  private wake: (() => void) | undefined;
  private failure: unknown;
  private madeDir = false;

  constructor(readonly dir: string) {}

  /** The store of a manifest file: `.cms/<project>.<environment>.base/`. */
  static of(manifestFile: string): BaseStore {
    return new BaseStore(manifestFile.replace(/\.json$/, '.base'));
  }

  /**
   * Keeps a text; answers its name (the manifest entry's `base`) at once. The write is queued, not
   * awaited: on 10,000 files the writes overlap with the server's answers instead of adding to them;
   * `flush` waits for them. A write cut short (a killed process) is caught by `get`, which checks
   * the text against its name: the file then merely has no base.
   */
  put(text: string): string {
    const name = createHash('sha256').update(text, 'utf8').digest('hex');
    if (this.known.has(name)) return name;
    this.known.add(name);
    this.queue.push({ name, text });
    this.pump();
    return name;
  }

  private pump(): void {
    if (this.running === 0 && this.queue.length > 0) {
      this.idle = new Promise((done) => {
        this.wake = done;
      });
    }
    while (this.running < WRITES_IN_FLIGHT && this.queue.length > 0) {
      const job = this.queue.shift() as { name: string; text: string };
      this.running++;
      this.write(job)
        .catch((error: unknown) => {
          this.failure ??= error;
        })
        .finally(() => {
          this.running--;
          this.pump();
          if (this.running === 0 && this.queue.length === 0) this.wake?.();
        });
    }
  }

  private async write(job: { name: string; text: string }): Promise<void> {
    if (!this.madeDir) {
      await mkdir(this.dir, { recursive: true });
      this.madeDir = true;
    }
    await writeFile(join(this.dir, job.name), job.text);
  }

  /** Waits for the queued writes; throws the first that failed. */
  async flush(): Promise<void> {
    await this.idle;
    if (this.failure) throw this.failure;
  }

  /** A kept text, or undefined when it is not there (a manifest from before bases were kept, a torn write). */
  async get(name: string | undefined): Promise<string | undefined> {
    if (!name || !NAME.test(name)) return undefined;
    let text: string;
    try {
      text = await readFile(join(this.dir, name), 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw error;
    }
    return createHash('sha256').update(text, 'utf8').digest('hex') === name ? text : undefined;
  }

  /** Waits for the queued writes, then removes the texts no entry of the manifest names. */
  async prune(manifest: Manifest): Promise<void> {
    await this.flush();
    const kept = new Set(Object.values(manifest.documents).map((entry) => entry.base));
    let names: string[];
    try {
      names = await readdir(this.dir);
    } catch {
      return;
    }
    await Promise.all(
      names
        .filter((name) => NAME.test(name) && !kept.has(name))
        .map((name) => rm(join(this.dir, name), { force: true })),
    );
  }
}
