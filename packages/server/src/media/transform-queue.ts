import { CmsError } from '@cms/core';

/**
 * A bounded queue for image transforms: at most `concurrency` run at once (each holds an original
 * and libvips' buffers, so this bounds memory, not the number of requests), at most `maxWaiting`
 * wait; one more is refused with SERVICE_UNAVAILABLE rather than piling up memory.
 */
export interface TransformQueue {
  run<T>(work: () => Promise<T>): Promise<T>;
  /** Transforms running and waiting now. */
  load(): { running: number; waiting: number };
}

/** Seconds a refused client is told to wait (`Retry-After`, sent with the refusal). */
export const TRANSFORM_QUEUE_RETRY_AFTER_SECONDS = 2;

export function createTransformQueue(options: { concurrency: number; maxWaiting: number }): TransformQueue {
  const { concurrency, maxWaiting } = options;
  let running = 0;
  const waiting: Array<() => void> = [];

  const release = () => {
    const next = waiting.shift();
    if (next) next();
    else running -= 1;
  };

  return {
    async run(work) {
      if (running >= concurrency) {
        if (waiting.length >= maxWaiting) {
          throw new CmsError(
            'SERVICE_UNAVAILABLE',
            `The server is busy transforming images: retry in ${TRANSFORM_QUEUE_RETRY_AFTER_SECONDS} seconds.`,
            { retryAfterSeconds: TRANSFORM_QUEUE_RETRY_AFTER_SECONDS },
            { 'retry-after': String(TRANSFORM_QUEUE_RETRY_AFTER_SECONDS) },
          );
        }
        // The finishing transform hands its slot over: `running` stays as it is.
        await new Promise<void>((resolve) => waiting.push(resolve));
      } else {
        running += 1;
      }
      try {
        return await work();
      } finally {
        release();
      }
    },
    load: () => ({ running, waiting: waiting.length }),
  };
}
