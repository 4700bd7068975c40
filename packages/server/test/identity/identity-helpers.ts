import { randomBytes } from 'node:crypto';
import { expect } from 'vitest';
import { type RequestOptions, sendRequest, type TestResponse, type TestServer } from '../support/test-server.js';

/** A password that satisfies the policy (12 to 256 characters). */
export const PASSWORD = 'correct horse battery staple';

/** The cookies a sign-in set, as a browser would send them back. */
export interface Session {
  token: string;
  csrf: string;
  /** The raw Set-Cookie headers, for flag checks. */
  setCookie: string[];
  userId: string;
  sessionId: string;
}

/** A unique email for one test. */
export function uniqueEmail(prefix = 'user'): string {
  return `${prefix}-${randomBytes(4).toString('hex')}@example.test`;
}

/** A unique project slug for one test. */
export function uniqueSlug(prefix = 'p'): string {
  return `${prefix}-${randomBytes(4).toString('hex')}`;
}

/** Reads the session cookies out of a sign-in response. */
export function sessionOf(response: TestResponse): Session {
  const setCookie = response.headers.getSetCookie();
  // Over https the server sets the `__Host-` names (docs/access-control.md "Cookies").
  const value = (name: string) => {
    const line =
      setCookie.find((cookie) => cookie.startsWith(`__Host-${name}=`)) ??
      setCookie.find((cookie) => cookie.startsWith(`${name}=`));
    return line ? decodeURIComponent(line.slice(line.indexOf('=') + 1).split(';')[0] ?? '') : '';
  };
  expect(response.status, response.text).toBeLessThan(300);
  return {
    token: value('cms_session'),
    csrf: value('cms_csrf'),
    setCookie,
    userId: response.body.data.session.userId,
    sessionId: response.body.data.session.id,
  };
}

/** Creates a user through the API with the admin key. */
export async function createUser(
  t: TestServer,
  user: { email?: string; role?: string; password?: string | null } = {},
): Promise<{ id: string; email: string; role: string }> {
  const body: Record<string, unknown> = { email: user.email ?? uniqueEmail(), role: user.role ?? 'viewer' };
  if (user.password !== null) body.password = user.password ?? PASSWORD;
  const response = await t.request('POST', '/api/v1/users', { body });
  expect(response.status, response.text).toBe(201);
  return response.body.data;
}

/** Signs in through the API (without an API key). */
export function login(
  url: string,
  email: string,
  password: string,
  headers: Record<string, string> = {},
): Promise<TestResponse> {
  return sendRequest(url, null, 'POST', '/api/v1/auth/login', { body: { email, password }, headers });
}

/** Creates a user with grants and signs them in. */
export async function signInAs(
  t: TestServer,
  user: { role?: string; grants?: Array<{ project: string; environment: string; role: string }> } = {},
): Promise<Session & { email: string }> {
  const email = uniqueEmail(user.role ?? 'viewer');
  const created = await createUser(t, { email, role: user.role ?? 'viewer' });
  if (user.grants) {
    const response = await t.request('PUT', `/api/v1/users/${created.id}/grants`, { body: user.grants });
    expect(response.status, response.text).toBe(200);
  }
  return { ...sessionOf(await login(t.url, email, PASSWORD)), email };
}

/** Sends a request as a browser would with this session: the cookie, and the CSRF header unless `csrf` is false. */
export function asSession(
  url: string,
  session: Pick<Session, 'token' | 'csrf'>,
  method: string,
  path: string,
  options: RequestOptions & { csrf?: boolean } = {},
): Promise<TestResponse> {
  const { csrf = true, headers = {}, ...rest } = options;
  return sendRequest(url, null, method, path, {
    ...rest,
    key: null,
    headers: {
      ...headers,
      cookie: `cms_session=${session.token}; cms_csrf=${session.csrf}`,
      ...(csrf ? { 'x-cms-csrf-token': session.csrf } : {}),
    },
  });
}

/** Checks an error envelope's status and code. */
export function expectError(response: TestResponse, status: number, code: string): void {
  expect(response.status, response.text).toBe(status);
  expect(response.body?.error?.code, response.text).toBe(code);
}
