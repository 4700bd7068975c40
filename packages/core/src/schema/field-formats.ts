/**
 * Format predicates shared by the frontmatter validator and schema sync. Pure functions, no state.
 */

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
// ISO 8601 / RFC 3339 date-time: minutes required, seconds and fraction optional, offset optional
// (without one the time is local, as YAML front matter often writes it).
const DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,9})?)?(Z|[+-](\d{2}):(\d{2}))?$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
// The WHATWG HTML "valid e-mail address" production: what browsers accept in <input type=email>.
const EMAIL =
  /^[a-zA-Z0-9.!#$%&'*+/=?^_`{|}~-]+@[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?(?:\.[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?)*$/;
/** Schemes a `url` check accepts; `javascript:` and `data:` are refused as they are unsafe in links. */
const URL_SCHEMES = new Set(['http:', 'https:', 'mailto:', 'tel:']);

function isCalendarDate(year: number, month: number, day: number): boolean {
  if (month < 1 || month > 12 || day < 1) return false;
  const leap = (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
  const days = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1] ?? 0;
  return day <= days;
}

/** True for a calendar date `YYYY-MM-DD` or an ISO 8601 date-time such as `2024-05-01T10:00:00Z`. */
export function isIsoDateOrDateTime(value: string): boolean {
  const date = DATE.exec(value);
  if (date) return isCalendarDate(Number(date[1]), Number(date[2]), Number(date[3]));
  const time = DATE_TIME.exec(value);
  if (!time) return false;
  if (!isCalendarDate(Number(time[1]), Number(time[2]), Number(time[3]))) return false;
  const [hour, minute, second] = [Number(time[4]), Number(time[5]), Number(time[6] ?? 0)];
  // Second 60 is a leap second (RFC 3339 §5.6).
  if (hour > 23 || minute > 59 || second > 60) return false;
  if (time[7] !== undefined && time[7] !== 'Z' && (Number(time[8]) > 23 || Number(time[9]) > 59)) return false;
  return true;
}

/** True for a UUID string in the 8-4-4-4-12 hex form, any case. */
export function isUuid(value: string): boolean {
  return UUID.test(value);
}

/** True for an e-mail address as the WHATWG HTML standard defines a valid one. */
export function isEmail(value: string): boolean {
  return EMAIL.test(value);
}

/** True for an absolute `http:`, `https:` (with a host), `mailto:` or `tel:` URL. */
export function isUrl(value: string): boolean {
  if (!URL.canParse(value)) return false;
  const url = new URL(value);
  if (!URL_SCHEMES.has(url.protocol)) return false;
  return url.protocol === 'mailto:' || url.protocol === 'tel:' || url.hostname !== '';
}

/** Length in Unicode code points, so an emoji counts as one character. */
export function codePointLength(value: string): number {
  let length = 0;
  for (const _ of value) length += 1;
  return length;
}

/** Compiles a `regex` check pattern; throws a SyntaxError when it is not a valid ECMAScript pattern. */
export function compilePattern(pattern: string): RegExp {
  return new RegExp(pattern, 'u');
}
