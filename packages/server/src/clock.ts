/**
 * The current time, one home for the whole server: `createServer({ clock })` hands it to every module
 * as `deps.clock`, so expiry rules, write timestamps and token lifetimes all follow the clock a test
 * moves instead of waiting. Nothing else reads the wall clock for these (durations and cache ages use
 * their own monotonic counters).
 */
export type Clock = () => Date;

/** The real clock. */
export const systemClock: Clock = () => new Date();
