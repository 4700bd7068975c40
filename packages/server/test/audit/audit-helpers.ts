import { expect } from 'vitest';
import type { RequestOptions, TestServer } from '../support/test-server.js';

/** The entries of the default project's log (or the instance's with `project: null`), newest first. */
export async function auditEntries(
  t: TestServer,
  query: Record<string, string> = {},
  options: RequestOptions = {},
): Promise<any[]> {
  const search = new URLSearchParams({ limit: '200', ...query }).toString();
  const response = await t.request('GET', `/api/v1/audit?${search}`, { environment: null, ...options });
  expect(response.status, response.text).toBe(200);
  return response.body.data;
}

/** The entries one request wrote, by its request id. */
export async function entriesOfRequest(t: TestServer, requestId: string, options: RequestOptions = {}): Promise<any[]> {
  return (await auditEntries(t, {}, options)).filter((entry) => entry.requestId === requestId);
}
