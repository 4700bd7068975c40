/**
 * Manifest writes during a long run: at most one every `intervalMs` (and every write in flight
 * awaited), plus a final one; a crash or Ctrl-C loses at most the last interval's bookkeeping,
 * and the next run sees those documents as unchanged-by-hash, not as conflicts. The text is rendered
 * at once (a consistent snapshot without copying the manifest) and written in order.
 */
import { onInterrupt } from '../cli/interrupt.js';
import { type Manifest, renderManifest, writeFileAtomic } from './manifest.js';

export class ManifestWriter {
  private last = 0;
  private pending: Promise<void> = Promise.resolve();
  private dirty = false;
  private readonly dispose: () => void;

  constructor(
    private readonly file: string,
    private readonly manifest: Manifest,
    private readonly intervalMs = 5000,
    private readonly now: () => number = Date.now,
  ) {
    this.dispose = onInterrupt(() => this.flush());
  }

  /** Records that the manifest changed; writes if the interval has passed. */
  changed(): void {
    this.dirty = true;
    if (this.now() - this.last >= this.intervalMs) this.write();
  }

  private write(): void {
    this.last = this.now();
    this.dirty = false;
    const text = renderManifest(this.manifest);
    this.pending = this.pending.then(() => writeFileAtomic(this.file, text));
  }

  async flush(): Promise<void> {
    if (this.dirty) this.write();
    await this.pending;
  }

  async close(): Promise<void> {
    await this.flush();
    this.dispose();
  }
}
