/**
 * The current time, one home for the whole server: `createServer({ clock })` hands it to every module
 * as `deps.clock`, so expiry rules, write timestamps and token lifetimes all follow the clock a test
 * moves instead of waiting, and so do cache lifetimes (tenancy/invalidated-cache.ts). Nothing else reads
 * the wall clock for these (durations and the published read cache's ages use monotonic counters).
 */
export type Clock = () => Date;

/** The real clock. */
export const systemClock: Clock = () => new Date();
