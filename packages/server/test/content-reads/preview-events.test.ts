import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDocument, hashHeader, postFrontmatter, syncSchema } from '../content/fixtures.js';
import { startTestServer, type TestServer } from '../support/test-server.js';

/** The live preview's server-sent events for server-rendered sites (docs/live-preview.md). */
const SITE = 'http://127.0.0.1:4999';
const TTL_SECONDS = 6;

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer({ env: { CMS_PREVIEW_TOKEN_TTL_SECONDS: String(TTL_SECONDS) } });
  await syncSchema(t);
  const set = await t.request('PUT', '/api/v1/settings', {
    environment: null,
    body: { mediaImageMaxBytes: null, previewUrl: `${SITE}/preview/{path}?token={token}` },
  });
  expect(set.status, set.text).toBe(200);
});
afterAll(() => t.close());

async function tokenFor(id: string): Promise<string> {
  const issued = await t.request('POST', `/api/v1/content/${id}/preview-token`, { body: {} });
  expect(issued.status, issued.text).toBe(200);
  return issued.body.data.token;
}

/** Reads server-sent events from a response until `until` says stop; returns them parsed. */
async function readEvents(response: Response, until: (events: { event: string; data: any }[]) => boolean) {
  const reader = (response.body as ReadableStream<Uint8Array>).getReader();
  const decoder = new TextDecoder();
  const events: { event: string; data: any }[] = [];
  let buffered = '';
  while (!until(events)) {
    const { value, done } = await reader.read();
    if (done) break;
    buffered += decoder.decode(value, { stream: true });
    let end = buffered.indexOf('\n\n');
    while (end >= 0) {
      const block = buffered.slice(0, end);
      buffered = buffered.slice(end + 2);
      const event = /^event: (.*)$/m.exec(block)?.[1];
      const data = /^data: (.*)$/m.exec(block)?.[1];
      if (event && data) events.push({ event, data: JSON.parse(data) });
      end = buffered.indexOf('\n\n');
    }
  }
  return { events, cancel: () => reader.cancel() };
}

describe('GET /content/{documentId}/preview-events', () => {
  it('sends `change` with a token for the new revision on each save, allowing the site origin only', async () => {
    const doc = await createDocument(t);
    const token = await tokenFor(doc.documentId);
    const url = `${t.url}/api/v1/content/${doc.documentId}/preview-events?token=${encodeURIComponent(token)}`;
    const stream = await fetch(url, { headers: { origin: SITE } });
    expect(stream.status).toBe(200);
    expect(stream.headers.get('content-type')).toMatch(/^text\/event-stream/);
    expect(stream.headers.get('access-control-allow-origin')).toBe(SITE);

    const saving = (async () => {
      await new Promise((resolve) => setTimeout(resolve, 100));
      const saved = await t.request('PUT', `/api/v1/content/${doc.documentId}`, {
        body: { frontmatter: postFrontmatter({ title: 'Changed' }), body: 'new', draftRevision: doc.draftRevision },
        headers: hashHeader(),
      });
      expect(saved.status, saved.text).toBe(200);
    })();
    const { events, cancel } = await readEvents(stream, (seen) => seen.some((e) => e.event === 'change'));
    await saving;
    await cancel();
    expect(events[0]).toMatchObject({ event: 'ready', data: { documentId: doc.documentId } });
    const change = events.find((e) => e.event === 'change');
    expect(change?.data).toMatchObject({ documentId: doc.documentId, draftRevision: doc.draftRevision + 1 });

    // The new token reads the new draft; the old one is outdated.
    const read = await fetch(`${t.url}/api/v1/content/${doc.documentId}?draft=true`, {
      headers: {
        authorization: `Preview ${change?.data.token}`,
        'x-cms-project': 'default',
        'x-cms-environment': 'production',
      },
    });
    expect(read.status).toBe(200);
    expect(((await read.json()) as any).data.frontmatter.title).toBe('Changed');
  });

  it('refuses another origin, a bad token and a token of another document', async () => {
    const [doc, other] = [await createDocument(t), await createDocument(t)];
    const token = await tokenFor(doc.documentId);
    const path = (id: string, tok: string) =>
      `${t.url}/api/v1/content/${id}/preview-events?token=${encodeURIComponent(tok)}`;
    const foreign = await fetch(path(doc.documentId, token), { headers: { origin: 'https://evil.example' } });
    expect(foreign.status).toBe(403);
    expect(((await foreign.json()) as any).error.code).toBe('FORBIDDEN');
    const bad = await fetch(path(doc.documentId, `${token}x`));
    expect(bad.status).toBe(401);
    const elsewhere = await fetch(path(other.documentId, token));
    expect(elsewhere.status).toBe(403);
    await elsewhere.text();
    await bad.text();
  });

  it('ends with `expired` when the token runs out', async () => {
    const doc = await createDocument(t);
    const token = await tokenFor(doc.documentId);
    const stream = await fetch(
      `${t.url}/api/v1/content/${doc.documentId}/preview-events?token=${encodeURIComponent(token)}`,
    );
    const { events } = await readEvents(stream, (seen) => seen.some((e) => e.event === 'expired'));
    expect(events.map((e) => e.event)).toEqual(['ready', 'expired']);
  }, 20_000);

  it('ends open streams when the server closes, so a graceful close does not wait for them', async () => {
    const other = await startTestServer();
    try {
      await syncSchema(other);
      const doc = await createDocument(other);
      const issued = await other.request('POST', `/api/v1/content/${doc.documentId}/preview-token`, { body: {} });
      const url = `${other.url}/api/v1/content/${doc.documentId}/preview-events?token=${encodeURIComponent(issued.body.data.token)}`;
      const stream = await fetch(url);
      const reading = readEvents(stream, () => false);
      await other.close();
      const { events } = await reading;
      expect(events.map((e) => e.event)).toEqual(['ready']);
    } catch (error) {
      await other.close().catch(() => undefined);
      throw error;
    }
  }, 60_000);
});
