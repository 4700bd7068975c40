/** Work to finish when the user presses Ctrl-C (flush the manifest), then exit 130. */
const hooks = new Set<() => Promise<void> | void>();

export function onInterrupt(hook: () => Promise<void> | void): () => void {
  hooks.add(hook);
  return () => hooks.delete(hook);
}

export async function runInterruptHooks(): Promise<void> {
  for (const hook of [...hooks]) {
    try {
      await hook();
    } catch {
      // Best effort: the process is exiting.
    }
  }
}

let interruptDetails: Record<string, unknown> | undefined;

/** What the interrupted command had done, for the INTERRUPTED error document (`error.details`). */
export function setInterruptDetails(details: Record<string, unknown>): void {
  interruptDetails = details;
}

export function getInterruptDetails(): Record<string, unknown> | undefined {
  return interruptDetails;
}
