/**
 * A pass of background work run every few seconds, never on the request path and never two at once in
 * one process (retention of the audit log and of the change feed). The pass handles its own errors.
 */
export interface PeriodicPass {
  /** Runs a pass now, then every interval; nothing when the interval is 0. Idempotent. */
  start(): void;
  /** Stops the timer and waits for the pass under way. */
  stop(): Promise<void>;
}

export function createPeriodicPass(options: { intervalSeconds: number; pass: () => Promise<void> }): PeriodicPass {
  let timer: NodeJS.Timeout | null = null;
  let running: Promise<void> | null = null;
  const run = () => {
    running ??= options.pass().finally(() => {
      running = null;
    });
  };
  return {
    start(): void {
      if (options.intervalSeconds <= 0 || timer) return;
      timer = setInterval(run, options.intervalSeconds * 1000);
      timer.unref();
      run();
    },
    async stop(): Promise<void> {
      if (timer) clearInterval(timer);
      timer = null;
      await running;
    },
  };
}
