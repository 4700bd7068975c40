import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { HOLD_BACK_MS } from '../../src/modules/domain-content/releases/releases.service.js';
import { createDocument, outboxEvents, syncSchema } from '../content/fixtures.js';
import { asSession, signInAs } from '../identity/identity-helpers.js';
import { startTestServer, type TestServer } from '../support/test-server.js';
import { createRelease, documentState, getRelease } from './release-fixtures.js';

/** The server's clock, which the tests move instead of waiting. */
let now = new Date('2026-11-27T09:00:00.000Z');
let t: TestServer;
beforeAll(async () => {
  t = await startTestServer({ clock: () => now });
  await syncSchema(t);
});
afterAll(() => t.close());

const HOUR = 60 * 60_000;

describe('scheduled releases', () => {
  it('keeps the UTC instant and time zone, and the poller fires once the clock reaches it', async () => {
    const doc = await createDocument(t);
    const id = await createRelease(t, 'Morning news', { [doc.documentId]: 'publish' });
    const at = new Date(now.getTime() + HOUR).toISOString();
    const scheduled = await t.request('POST', `/api/v1/releases/${id}/schedule`, {
      body: { scheduledAt: at, timeZone: 'Europe/Paris' },
    });
    expect(scheduled.status, scheduled.text).toBe(200);
    expect(scheduled.body.data).toMatchObject({ status: 'scheduled', scheduledAt: at, timeZone: 'Europe/Paris' });

    // Not due yet: a run finds nothing.
    const early = await t.request('POST', '/api/v1/releases/run-due');
    expect(early.body.data).toEqual({ published: [], failed: [] });
    expect(await documentState(t, doc.documentId)).toMatchObject({ publishedVersion: null });

    now = new Date(now.getTime() + HOUR + 1_000);
    await vi.waitFor(async () => expect((await getRelease(t, id)).status).toBe('published'), {
      timeout: 8_000,
      interval: 100,
    });
    expect(await documentState(t, doc.documentId)).toMatchObject({ publishedVersion: 1, versions: 1 });
    expect((await getRelease(t, id)).scheduledAt).toBeNull();
  });

  it('names the person who scheduled it, with their email, in the events it sends when it fires', async () => {
    const editor = await signInAs(t, { grants: [{ project: 'default', environment: '*', role: 'editor' }] });
    const doc = await createDocument(t);
    const id = await createRelease(t, 'Scheduled by a person', { [doc.documentId]: 'publish' });
    const scheduled = await asSession(t.url, editor, 'POST', `/api/v1/releases/${id}/schedule`, {
      body: { scheduledAt: new Date(now.getTime() + HOUR).toISOString() },
    });
    expect(scheduled.status, scheduled.text).toBe(200);

    now = new Date(now.getTime() + HOUR + 1_000);
    await vi.waitFor(async () => expect((await getRelease(t, id)).status).toBe('published'), {
      timeout: 8_000,
      interval: 100,
    });
    const sent = (await outboxEvents(t)).filter(
      (event) =>
        event.payload.release?.id === id ||
        (event.type === 'content.published' && event.payload.document?.documentId === doc.documentId),
    );
    expect(sent.map((event) => [event.type, event.payload.user])).toEqual([
      ['content.published', { id: editor.userId, email: editor.email }],
      ['release.published', { id: editor.userId, email: editor.email }],
    ]);
  });

  it('sets aside a due release whose publish throws, so the one due after it still goes out; retries it later', async () => {
    const stuck = await createDocument(t);
    const fine = await createDocument(t);
    // A broken row, as a bug would leave one: writing a version of this document raises.
    await t.db.query(`create function test_refuse_version() returns trigger language plpgsql as $$
      begin
        if new.document_id = '${stuck.documentId}' then raise exception 'refused by the test'; end if;
        return new;
      end $$`);
    await t.db.query(`create trigger test_refuse_version before insert on document_versions
      for each row execute function test_refuse_version()`);
    const first = await createRelease(t, 'Throws', { [stuck.documentId]: 'publish' });
    const second = await createRelease(t, 'Due after it', { [fine.documentId]: 'publish' });
    for (const [id, offset] of [
      [first, HOUR],
      [second, HOUR + 1_000],
    ] as const) {
      const scheduled = await t.request('POST', `/api/v1/releases/${id}/schedule`, {
        body: { scheduledAt: new Date(now.getTime() + offset).toISOString() },
      });
      expect(scheduled.status, scheduled.text).toBe(200);
    }

    now = new Date(now.getTime() + HOUR + 2_000);
    await vi.waitFor(async () => expect((await getRelease(t, second)).status).toBe('published'), {
      timeout: 8_000,
      interval: 100,
    });
    expect(await getRelease(t, first)).toMatchObject({ status: 'scheduled' });
    expect(await documentState(t, stuck.documentId)).toMatchObject({ publishedVersion: null, versions: 0 });

    // Repaired, it goes out on the next try after the hold.
    await t.db.query('drop trigger test_refuse_version on document_versions');
    await t.db.query('drop function test_refuse_version()');
    now = new Date(now.getTime() + HOLD_BACK_MS + 1_000);
    await vi.waitFor(async () => expect((await getRelease(t, first)).status).toBe('published'), {
      timeout: 8_000,
      interval: 100,
    });
    expect(await documentState(t, stuck.documentId)).toMatchObject({ publishedVersion: 1, versions: 1 });
  });

  it('`run-due` publishes what is due in this environment, once', async () => {
    const doc = await createDocument(t);
    const id = await createRelease(t, 'Run due', { [doc.documentId]: 'publish' });
    // Scheduled straight in the database a moment ago, as if no poller had been running.
    await t.db.query(`update releases set status = 'scheduled', scheduled_at = $2, time_zone = 'UTC' where id = $1`, [
      id,
      new Date(now.getTime() - 1_000),
    ]);
    const response = await t.request('POST', '/api/v1/releases/run-due');
    expect(response.status, response.text).toBe(200);
    // The poller may have taken it first; either way it went out exactly once.
    const { published } = response.body.data;
    expect(published.length === 0 || published[0] === id).toBe(true);
    expect(await documentState(t, doc.documentId)).toMatchObject({ publishedVersion: 1, versions: 1 });
    const again = await t.request('POST', '/api/v1/releases/run-due');
    expect(again.body.data).toEqual({ published: [], failed: [] });
  });

  it('unschedules, and refuses unknown time zones, past instants and unscheduling an open release', async () => {
    const id = await createRelease(t, 'Later');
    const zone = await t.request('POST', `/api/v1/releases/${id}/schedule`, {
      body: { scheduledAt: new Date(now.getTime() + HOUR).toISOString(), timeZone: 'Mars/Olympus' },
    });
    expect(zone.status).toBe(400);
    expect(zone.body.error.details.fields).toHaveProperty(['body.timeZone']);
    const past = await t.request('POST', `/api/v1/releases/${id}/schedule`, {
      body: { scheduledAt: new Date(now.getTime() - HOUR).toISOString() },
    });
    expect(past.status).toBe(400);
    expect(past.body.error.details.fields).toHaveProperty(['body.scheduledAt']);
    const open = await t.request('POST', `/api/v1/releases/${id}/unschedule`);
    expect(open.status).toBe(409);
    expect(open.body.error.code).toBe('RELEASE_STATE_CONFLICT');

    const ok = await t.request('POST', `/api/v1/releases/${id}/schedule`, {
      body: { scheduledAt: new Date(now.getTime() + HOUR).toISOString() },
    });
    expect(ok.body.data).toMatchObject({ status: 'scheduled', timeZone: 'UTC' });
    const back = await t.request('POST', `/api/v1/releases/${id}/unschedule`);
    expect(back.body.data).toMatchObject({ status: 'open', scheduledAt: null });
  });
});
