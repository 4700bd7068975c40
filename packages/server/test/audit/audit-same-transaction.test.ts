/**
 * A committed change always has its audit entry (docs/audit.md "How entries are written"): the entry is
 * written in the change's own transaction, so when the entry cannot be written the change is not made
 * either. A trigger refuses the entries of chosen actions; each change below must then answer 500 and
 * leave nothing changed. A change made outside a transaction would commit and answer 2xx without an entry.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { asSession, login, PASSWORD, signInAs } from '../identity/identity-helpers.js';
import { PNG, uploadOk } from '../media-api/media-api-support.js';
import { authorize, deny, poll, startChallenge } from '../sign-in/cli-helpers.js';
import { startTestServer, type TestResponse, type TestServer } from '../support/test-server.js';

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer();
  await t.db.query('create table audit_refused_actions (action text primary key)');
  await t.db.query(`create function refuse_audit_entry() returns trigger language plpgsql as $$
    begin
      if exists (select 1 from audit_refused_actions where action = new.action) then
        raise exception 'audit entry of % refused by the test', new.action;
      end if;
      return new;
    end $$`);
  await t.db.query(
    'create trigger refuse_audit_entry before insert on audit_entries for each row execute function refuse_audit_entry()',
  );
});
afterEach(() => t.db.query('delete from audit_refused_actions'));
afterAll(() => t.close());

const refuseEntriesOf = (action: string) => t.db.query('insert into audit_refused_actions values ($1)', [action]);
const count = async (sql: string, params: unknown[]) =>
  Number((await t.db.query<{ n: string }>(`select count(*) as n from ${sql}`, params)).rows[0]?.n);
const expectRefused = (response: TestResponse) => expect(response.status, response.text).toBe(500);
const editor = { role: 'editor', grants: [{ project: 'default', environment: '*', role: 'editor' }] };

describe('a change whose audit entry cannot be written is not made', () => {
  it('signing in: no session is started', async () => {
    const session = await signInAs(t);
    const before = await count('sessions where user_id = $1', [session.userId]);
    await refuseEntriesOf('auth.login');
    expectRefused(await login(t.url, session.email, PASSWORD));
    expect(await count('sessions where user_id = $1', [session.userId])).toBe(before);
  });

  it('signing out and ending a session: the session lives on', async () => {
    const session = await signInAs(t);
    const other = await signInAs(t);
    await refuseEntriesOf('auth.logout');
    expectRefused(await asSession(t.url, session, 'POST', '/api/v1/auth/logout', { project: null, environment: null }));
    await refuseEntriesOf('auth.sessions.end');
    expectRefused(
      await asSession(t.url, other, 'DELETE', `/api/v1/auth/sessions/${other.sessionId}`, {
        project: null,
        environment: null,
      }),
    );
    for (const still of [session, other]) {
      const me = await asSession(t.url, still, 'GET', '/api/v1/me', { project: null, environment: null });
      expect(me.status, me.text).toBe(200);
    }
  });

  it('starting, approving and denying a command-line sign-in: no challenge is opened or moved on', async () => {
    const session = await signInAs(t, editor);
    const target = { project: 'default', environment: 'production' };
    const approved = await startChallenge(t.url, target);
    const denied = await startChallenge(t.url, target);
    await refuseEntriesOf('auth.cli.authorize');
    await refuseEntriesOf('auth.cli.deny');
    expectRefused(await authorize(t.url, session, approved.body.data.challengeId));
    expectRefused(await deny(t.url, session, denied.body.data.challengeId));
    for (const started of [approved, denied]) {
      const status = await poll(t.url, started.body.data.challengeId);
      expect(status.body.data, status.text).toEqual({ status: 'pending' });
    }
    const before = await count('cli_challenges', []);
    await refuseEntriesOf('auth.cli.start');
    expectRefused(await startChallenge(t.url, target));
    expect(await count('cli_challenges', [])).toBe(before);
  });

  it('starting a second factor: nothing is enrolled', async () => {
    const session = await signInAs(t);
    await refuseEntriesOf('me.mfa.enrol');
    expectRefused(
      await asSession(t.url, session, 'POST', '/api/v1/me/mfa/enrol', { project: null, environment: null }),
    );
    expect(await count('user_mfa where user_id = $1', [session.userId])).toBe(0);
  });

  it('creating an API key and a webhook, withdrawing an invite: none of it happens', async () => {
    await refuseEntriesOf('api-keys.create');
    const label = `refused-${Date.now()}`;
    expectRefused(
      await t.request('POST', '/api/v1/api-keys', {
        project: null,
        environment: null,
        body: { label, scopes: ['content:read'], contextAllowlist: [{ project: 'default', environment: '*' }] },
      }),
    );
    expect(await count('api_keys where label = $1', [label])).toBe(0);

    await refuseEntriesOf('webhooks.create');
    const url = 'https://203.0.113.10/refused';
    expectRefused(
      await t.request('POST', '/api/v1/webhooks', {
        body: { url, events: ['content.published'], secret: 'whsec-0123456789abcdef0123456789abcdef' },
      }),
    );
    expect(await count('webhooks where url = $1', [url])).toBe(0);

    const invited = await t.request('POST', '/api/v1/invites', {
      project: null,
      environment: null,
      body: { email: `refused-${Date.now()}@example.test`, role: 'viewer' },
    });
    expect(invited.status, invited.text).toBe(200);
    await refuseEntriesOf('invites.withdraw');
    expectRefused(
      await t.request('DELETE', `/api/v1/invites/${invited.body.data.id}`, { project: null, environment: null }),
    );
    expect(await count('invites where id = $1', [invited.body.data.id])).toBe(1);
  });

  it('creating a user and a release: neither exists', async () => {
    await refuseEntriesOf('users.create');
    const email = `refused-${Date.now()}@example.test`;
    expectRefused(
      await t.request('POST', '/api/v1/users', {
        project: null,
        environment: null,
        body: { email, role: 'viewer', password: PASSWORD },
      }),
    );
    expect(await count('users where email = $1', [email])).toBe(0);

    await refuseEntriesOf('releases.create');
    const title = `refused-${Date.now()}`;
    expectRefused(await t.request('POST', '/api/v1/releases', { body: { title } }));
    expect(await count('releases where title = $1', [title])).toBe(0);
  });

  it('changing and deleting a media asset: the asset is as it was', async () => {
    const asset = await uploadOk(t, { filename: 'kept.png', content: PNG, contentType: 'image/png' });
    await refuseEntriesOf('media.update');
    expectRefused(await t.request('PATCH', `/api/v1/media/${asset.id}`, { body: { alt: 'changed' } }));
    await refuseEntriesOf('media.delete');
    expectRefused(await t.request('DELETE', `/api/v1/media/${asset.id}`));
    const still = await t.request('GET', `/api/v1/media/${asset.id}`);
    expect(still.status, still.text).toBe(200);
    expect(still.body.data.alt ?? null).toBe(asset.alt ?? null);
  });
});
