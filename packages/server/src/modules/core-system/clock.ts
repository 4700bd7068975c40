/** The current time; injected so expiry and backoff rules can be tested without waiting. */
export type Clock = () => Date;

/** The real clock. */
export const systemClock: Clock = () => new Date();
