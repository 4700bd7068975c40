import { expect } from 'vitest';
import { asSession, type Session } from '../identity/identity-helpers.js';
import { sendRequest, type TestResponse } from '../support/test-server.js';

/** A clock the test moves forward instead of waiting. */
export function movableClock(): { clock: () => Date; advance(ms: number): void; freeze(): void; thaw(): void } {
  let offset = 0;
  let frozenAt: number | null = null;
  return {
    clock: () => new Date((frozenAt ?? Date.now()) + offset),
    advance: (ms) => (offset += ms),
    // While frozen only `advance` moves the clock, so a test's arithmetic holds however slow the machine.
    freeze: () => (frozenAt ??= Date.now()),
    thaw: () => {
      if (frozenAt === null) return;
      offset -= Date.now() - frozenAt;
      frozenAt = null;
    },
  };
}

/** Starts a device challenge as the CLI does: no credentials, no routing headers. */
export function startChallenge(url: string, body: Record<string, unknown>): Promise<TestResponse> {
  return sendRequest(url, null, 'POST', '/api/v1/auth/cli/start', { body, project: null, environment: null });
}

/** Trades a challenge and code for a key, as the CLI does. */
export function exchange(url: string, challengeId: string, code: string): Promise<TestResponse> {
  return sendRequest(url, null, 'POST', '/api/v1/auth/cli/exchange', {
    body: { challengeId, code },
    project: null,
    environment: null,
  });
}

/** Approves a challenge in the browser session. */
export function authorize(url: string, session: Session, challengeId: string): Promise<TestResponse> {
  return asSession(url, session, 'POST', '/api/v1/auth/cli/authorize', {
    body: { challengeId },
    project: null,
    environment: null,
  });
}

/** Refuses a challenge in the browser session. */
export function deny(url: string, session: Session, challengeId: string): Promise<TestResponse> {
  return asSession(url, session, 'POST', '/api/v1/auth/cli/deny', {
    body: { challengeId },
    project: null,
    environment: null,
  });
}

/** Asks where a challenge stands, as the waiting CLI does: no credentials. */
export function poll(url: string, challengeId: string): Promise<TestResponse> {
  return sendRequest(url, null, 'POST', '/api/v1/auth/cli/poll', {
    body: { challengeId },
    project: null,
    environment: null,
  });
}

/** Runs start -> authorize -> exchange and returns the key. */
export async function signInCli(
  url: string,
  session: Session,
  target = { project: 'default', environment: 'production' },
): Promise<string> {
  const started = await startChallenge(url, target);
  expect(started.status, started.text).toBe(200);
  const approved = await authorize(url, session, started.body.data.challengeId);
  expect(approved.status, approved.text).toBe(200);
  const exchanged = await exchange(url, started.body.data.challengeId, approved.body.data.code);
  expect(exchanged.status, exchanged.text).toBe(200);
  return exchanged.body.data.apiKey;
}
