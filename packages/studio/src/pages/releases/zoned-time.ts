/**
 * Wall-clock times in an IANA time zone, for scheduling a release (decisions.md §8: `scheduledAt` is a
 * UTC instant, `timeZone` the zone it was chosen in). Uses only `Intl`, which knows every zone's rules.
 */

/** The zone of this browser, for the picker's default. */
export function browserTimeZone(): string {
  return Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
}

/** Every zone the browser knows, `UTC` first. */
export function timeZones(): string[] {
  const known = typeof Intl.supportedValuesOf === 'function' ? Intl.supportedValuesOf('timeZone') : [];
  return ['UTC', ...known.filter((zone) => zone !== 'UTC')];
}

/** The wall-clock parts of `instant` in `zone`. */
function wallClock(instant: number, zone: string): { y: number; mo: number; d: number; h: number; mi: number } {
  const parts = new Intl.DateTimeFormat('en-US', {
    timeZone: zone,
    hourCycle: 'h23',
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
  }).formatToParts(new Date(instant));
  const get = (type: string) => Number(parts.find((part) => part.type === type)?.value);
  return { y: get('year'), mo: get('month'), d: get('day'), h: get('hour'), mi: get('minute') };
}

/** Minutes `zone` is ahead of UTC at `instant`. */
function offsetMinutes(instant: number, zone: string): number {
  const w = wallClock(instant, zone);
  const asUtc = Date.UTC(w.y, w.mo - 1, w.d, w.h, w.mi);
  return Math.round((asUtc - Math.floor(instant / 60_000) * 60_000) / 60_000);
}

/**
 * The UTC instant of a `datetime-local` value (`2026-12-24T09:00`) read in `zone`, or null when the
 * value is not one. A wall time skipped by a daylight-saving change resolves to the instant after it.
 */
export function zonedToUtc(local: string, zone: string): Date | null {
  const match = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})$/.exec(local);
  if (!match) return null;
  const [, y, mo, d, h, mi] = match.map(Number) as [number, number, number, number, number, number];
  const wall = Date.UTC(y, mo - 1, d, h, mi);
  // The offset at the guessed instant, then once more at the corrected one (a change in between).
  const first = wall - offsetMinutes(wall, zone) * 60_000;
  return new Date(wall - offsetMinutes(first, zone) * 60_000);
}

/** `instant` as a `datetime-local` value in `zone`. */
export function utcToZoned(instant: Date, zone: string): string {
  const w = wallClock(instant.getTime(), zone);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${w.y}-${pad(w.mo)}-${pad(w.d)}T${pad(w.h)}:${pad(w.mi)}`;
}

/** An instant for people: its wall time in `zone`, with the zone named. */
export function formatInZone(instant: string | Date, zone: string | null): string {
  const shownZone = zone ?? browserTimeZone();
  const text = new Intl.DateTimeFormat('en-GB', {
    timeZone: shownZone,
    dateStyle: 'medium',
    timeStyle: 'short',
  }).format(new Date(instant));
  return `${text} (${shownZone})`;
}
