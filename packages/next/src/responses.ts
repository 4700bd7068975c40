/** A plain-text answer of a route handler: the reason a browser or a webhook sender is shown. */
import { NextResponse } from 'next/server.js';

/** A `text/plain` response with `status`. */
export function plain(status: number, message: string): NextResponse {
  return new NextResponse(message, { status, headers: { 'content-type': 'text/plain; charset=utf-8' } });
}

/** An environment variable, with an empty value counted as unset. */
export function env(name: string): string | undefined {
  const value = typeof process === 'undefined' ? undefined : process.env[name];
  return value === '' ? undefined : value;
}
