import { describe, expect, it } from 'vitest';
import { utcToZoned, zonedToUtc } from './zoned-time.js';

describe('zoned times of the release schedule', () => {
  it('reads a wall time in its zone, summer and winter', () => {
    expect(zonedToUtc('2026-12-24T09:00', 'Europe/Paris')?.toISOString()).toBe('2026-12-24T08:00:00.000Z');
    expect(zonedToUtc('2026-07-01T09:00', 'Europe/Paris')?.toISOString()).toBe('2026-07-01T07:00:00.000Z');
    expect(zonedToUtc('2026-07-01T09:00', 'America/New_York')?.toISOString()).toBe('2026-07-01T13:00:00.000Z');
    expect(zonedToUtc('2026-07-01T09:00', 'UTC')?.toISOString()).toBe('2026-07-01T09:00:00.000Z');
    expect(zonedToUtc('2026-07-01T09:00', 'Asia/Kolkata')?.toISOString()).toBe('2026-07-01T03:30:00.000Z');
  });

  it('moves a wall time skipped by the spring change past it', () => {
    // 02:30 does not exist in Paris on 29 March 2026: clocks go from 02:00 to 03:00.
    expect(zonedToUtc('2026-03-29T02:30', 'Europe/Paris')?.toISOString()).toBe('2026-03-29T01:30:00.000Z');
  });

  it('round-trips, and refuses what is not a datetime-local value', () => {
    expect(utcToZoned(new Date('2026-12-24T08:00:00Z'), 'Europe/Paris')).toBe('2026-12-24T09:00');
    expect(zonedToUtc('tomorrow', 'UTC')).toBeNull();
  });
});
