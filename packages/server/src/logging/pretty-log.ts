import { formatWithOptions } from 'node:util';
import type { ServerConfig } from '../config.js';

/** Where formatted lines go (process.stdout, or a test's collector). */
export interface LineSink {
  write(text: string): unknown;
}

const LEVELS: Record<number, string> = { 10: 'TRACE', 20: 'DEBUG', 30: 'INFO', 40: 'WARN', 50: 'ERROR', 60: 'FATAL' };
const LEVEL_COLORS: Record<number, number> = { 10: 90, 20: 90, 30: 36, 40: 33, 50: 31, 60: 35 };
/** Fields every line has, or that the line's own layout already shows. */
const HIDDEN = new Set(['level', 'time', 'pid', 'hostname', 'msg', 'requestId', 'reqId']);
const REQUEST_FIELDS = new Set(['method', 'url', 'statusCode', 'durationMs', 'principal']);

/** Does this configuration print readable lines (LOG_FORMAT, or `auto`: a terminal outside production)? */
export function usesPrettyLogs(config: Pick<ServerConfig, 'logFormat' | 'production'>, isTty: boolean): boolean {
  if (config.logFormat !== 'auto') return config.logFormat === 'pretty';
  return isTty && !config.production;
}

/**
 * A log stream for a person at a terminal: `12:04:05 INFO  message key=value`, and one short line per
 * request (`GET /api/v1/documents 200 4.2 ms`). Lines carrying `devKey` or `setupUrl` are left out: the
 * start banner shows them once. JSON lines stay the default anywhere else (docs/configuration.md).
 */
export function createPrettyLogStream(sink: LineSink, options: { color: boolean }) {
  const paint = (code: number, text: string) => (options.color ? `\x1b[${code}m${text}\x1b[0m` : text);
  return {
    write(line: string): void {
      let entry: Record<string, unknown>;
      try {
        entry = JSON.parse(line) as Record<string, unknown>;
      } catch {
        sink.write(line);
        return;
      }
      if ('devKey' in entry || 'setupUrl' in entry) return;
      const time = new Date(Number(entry.time ?? Date.now())).toTimeString().slice(0, 8);
      const level = Number(entry.level ?? 30);
      const head = `${paint(90, time)} ${paint(LEVEL_COLORS[level] ?? 37, (LEVELS[level] ?? String(level)).padEnd(5))}`;
      sink.write(`${head} ${entry.msg === 'request' ? requestLine(entry, paint) : otherLine(entry, paint)}\n`);
    },
  };
}

type Paint = (code: number, text: string) => string;

function requestLine(entry: Record<string, unknown>, paint: Paint): string {
  const status = Number(entry.statusCode);
  const statusColor = status >= 500 ? 31 : status >= 400 ? 33 : 32;
  const who = entry.principal && entry.principal !== 'anonymous' ? paint(90, ` ${String(entry.principal)}`) : '';
  return `${entry.method} ${entry.url} ${paint(statusColor, String(status))} ${entry.durationMs} ms${who}${fields(entry, REQUEST_FIELDS, paint)}`;
}

function otherLine(entry: Record<string, unknown>, paint: Paint): string {
  const { err, ...rest } = entry;
  const text = `${String(entry.msg ?? '')}${fields(rest, new Set(), paint)}`;
  if (!err || typeof err !== 'object') return text;
  const { stack, message } = err as { stack?: string; message?: string };
  return `${text}\n${paint(31, stack ?? message ?? formatWithOptions({ colors: false }, err))}`;
}

function fields(entry: Record<string, unknown>, skip: ReadonlySet<string>, paint: Paint): string {
  const parts: string[] = [];
  for (const [key, value] of Object.entries(entry)) {
    if (HIDDEN.has(key) || skip.has(key) || value === undefined) continue;
    const text = typeof value === 'string' ? (/\s/.test(value) ? JSON.stringify(value) : value) : JSON.stringify(value);
    parts.push(`${paint(90, `${key}=`)}${text}`);
  }
  return parts.length > 0 ? ` ${parts.join(' ')}` : '';
}
