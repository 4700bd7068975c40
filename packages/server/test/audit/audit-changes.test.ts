/**
 * What an entry's `changes` keeps (docs/audit.md "Changes"): secrets redacted at any depth, long strings
 * cut (never inside a character), too large a description reduced to its keys.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { capChanges, MAX_CHANGES_BYTES, MAX_CHANGES_STRING, REDACTED, redact } from '../../src/audit/audit-changes.js';
import { startTestServer, type TestServer } from '../support/test-server.js';
import { entriesOfRequest } from './audit-helpers.js';

describe('redact', () => {
  it('replaces secrets at any depth: passwords, tokens, keys, codes, webhook secrets', () => {
    const input = {
      email: 'ada@example.test',
      password: 'p1',
      currentPassword: 'p2',
      newPassword: 'p3',
      challengeToken: 't1',
      nested: { list: [{ token: 't2', apiKey: 'k1', key: 'k2', note: 'kept' }] },
      code: '123456',
      recoveryCode: 'r1',
      secret: 's1',
      clientSecret: 's2',
      authorization: 'Bearer x',
    };
    const out = redact(input) as any;
    expect(out).toEqual({
      email: 'ada@example.test',
      password: REDACTED,
      currentPassword: REDACTED,
      newPassword: REDACTED,
      challengeToken: REDACTED,
      nested: { list: [{ token: REDACTED, apiKey: REDACTED, key: REDACTED, note: 'kept' }] },
      code: REDACTED,
      recoveryCode: REDACTED,
      secret: REDACTED,
      clientSecret: REDACTED,
      authorization: REDACTED,
    });
  });

  it('keeps only the scheme and host of a URL: its path, query, fragment and user info can hold secrets', () => {
    expect(redact({ url: 'https://hooks.slack.com/services/T000/B000/SECRET' })).toEqual({
      url: `https://hooks.slack.com/${REDACTED}`,
    });
    expect(redact(['https://h.example:8443/hook?token=abc', 'https://u:p@h.example/', 'https://h.example/#k'])).toEqual(
      [`https://h.example:8443/${REDACTED}`, `https://h.example/${REDACTED}`, `https://h.example/${REDACTED}`],
    );
    // Nothing to hide: kept as sent. Not a URL: kept as text.
    expect(redact('https://hooks.example.com/')).toBe('https://hooks.example.com/');
    expect(redact('see https://x.example/secret')).toBe('see https://x.example/secret');
    expect(redact('mailto:ada@example.test')).toBe('mailto:ada@example.test');
  });

  it('cuts a long string, never between the two halves of a character', () => {
    const plain = redact('a'.repeat(MAX_CHANGES_STRING + 50)) as string;
    expect(plain).toBe(`${'a'.repeat(MAX_CHANGES_STRING)}… (${MAX_CHANGES_STRING + 50} chars)`);
    // An emoji (two UTF-16 units) straddling the cut: it goes whole, and no lone half is left.
    const emoji = `${'a'.repeat(MAX_CHANGES_STRING - 1)}😀${'b'.repeat(20)}`;
    const cut = redact(emoji) as string;
    expect(cut.startsWith(`${'a'.repeat(MAX_CHANGES_STRING - 1)}…`)).toBe(true);
    expect(cut).not.toMatch(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])/);
    expect((redact(`${'a'.repeat(MAX_CHANGES_STRING - 2)}😀${'b'.repeat(20)}`) as string).includes('😀')).toBe(true);
  });
});

describe('capChanges', () => {
  it('keeps only the top-level keys of a description past the size limit', () => {
    const big = Object.fromEntries(Array.from({ length: 40 }, (_, index) => [`field${index}`, 'x'.repeat(150)]));
    expect(JSON.stringify(big).length).toBeGreaterThan(MAX_CHANGES_BYTES);
    expect(capChanges(big)).toEqual({ truncated: true, keys: Object.keys(big) });
    expect(capChanges({ small: 1 })).toEqual({ small: 1 });
    expect(capChanges(null)).toBeNull();
  });
});

describe('a change on a server', () => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer();
  });
  afterAll(() => t.close());

  it('keeps a webhook URL’s host and drops its path and query, on create and update', async () => {
    // An IP literal: a public address that needs no DNS.
    const url = 'https://93.184.216.34/services/T000/B000/SECRETPATH?token=SECRETQUERY';
    const created = await t.request('POST', '/api/v1/webhooks', {
      body: { url, events: ['content.published'], secret: 's'.repeat(32) },
    });
    expect(created.status, created.text).toBe(201);
    const updated = await t.request('PUT', `/api/v1/webhooks/${created.body.data.id}`, {
      body: { url: `${url}&other=SECRETAGAIN` },
    });
    expect(updated.status, updated.text).toBe(200);
    for (const response of [created, updated]) {
      const [entry] = await entriesOfRequest(t, response.headers.get('x-request-id') ?? '', { environment: null });
      expect(entry.changes.input.url).toBe(`https://93.184.216.34/${REDACTED}`);
      expect(JSON.stringify(entry)).not.toMatch(/SECRET/);
    }
  });

  it('is stored cut, and the change it describes goes through', async () => {
    // The emoji's first half falls on the last character kept: cut there, it would be no storable text.
    const description = `${'d'.repeat(MAX_CHANGES_STRING - 1)}😀 and more`;
    const response = await t.request('POST', '/api/v1/releases', { body: { title: 'Long', description } });
    expect(response.status, response.text).toBe(201);
    const [entry] = await entriesOfRequest(t, response.headers.get('x-request-id') ?? '', { environment: null });
    expect(entry.action).toBe('releases.create');
    expect(entry.changes.input.description).toBe(
      `${'d'.repeat(MAX_CHANGES_STRING - 1)}… (${description.length} chars)`,
    );
  });
});
