/**
 * A preview token opens draft mode only on the site of its own project and environment: a genuine
 * token of another project or environment on the same server is refused (403, naming both), draft
 * mode stays off and no release cookie is set; a token whose project was rewritten to the site's fails
 * its signature on the server (401). The site's project and environment come from the options or from
 * CMS_PROJECT and CMS_ENVIRONMENT. Driven with Next's `NextRequest`, against a real server.
 */
import { NextRequest } from 'next/server.js';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { addEnvironment, createDocument, syncSchema } from '../../server/test/content/fixtures.js';
import { startTestServer, type TestServer } from '../../server/test/support/test-server.js';
import { draftModeHandler, RELEASE_PREVIEW_COOKIE } from '../src/index.js';

let t: TestServer;
const tokens = { own: '', otherProject: '', otherEnvironment: '' };

async function issue(target: { project: string; environment: string }): Promise<string> {
  await syncSchema(t, undefined, target);
  const doc = await createDocument(t, {}, target);
  const issued = await t.request('POST', `/api/v1/content/${doc.documentId}/preview-token`, { ...target, body: {} });
  expect(issued.status, issued.text).toBe(200);
  return issued.body.data.token;
}

beforeAll(async () => {
  t = await startTestServer();
  const created = await t.request('POST', '/api/v1/projects', {
    project: null,
    environment: null,
    body: { slug: 'other' },
  });
  expect(created.status, created.text).toBe(201);
  await addEnvironment(t, 'staging');
  tokens.own = await issue({ project: 'default', environment: 'production' });
  tokens.otherProject = await issue({ project: 'other', environment: 'production' });
  tokens.otherEnvironment = await issue({ project: 'default', environment: 'staging' });
}, 180_000);
afterAll(() => t.close());
afterEach(() => {
  delete process.env.CMS_PROJECT;
  delete process.env.CMS_ENVIRONMENT;
});

/** Opens the preview with `token` on a site configured by `options`; answers what the browser gets. */
async function open(token: string, options: { project?: string; environment?: string } = {}) {
  const calls: string[] = [];
  const handler = draftModeHandler({ serverUrl: t.url, enableDraftMode: () => void calls.push('draft'), ...options });
  const response = await handler(new NextRequest(`https://site.test/api/draft?token=${token}`));
  const cookie = response.headers.getSetCookie().find((line) => line.startsWith(`${RELEASE_PREVIEW_COOKIE}=`));
  return { status: response.status, text: await response.text(), draftMode: calls.length > 0, cookie };
}

/** The token with its payload's claims changed and its signature kept: what a forger can make. */
function withClaims(token: string, patch: Record<string, unknown>): string {
  const [head, payload, signature] = token.split('.') as [string, string, string];
  const claims = { ...JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')), ...patch };
  return `${head}.${Buffer.from(JSON.stringify(claims)).toString('base64url')}.${signature}`;
}

describe('draftModeHandler and the token’s project and environment', () => {
  it('opens draft mode for a token of the site’s own project and environment', async () => {
    const opened = await open(tokens.own);
    expect(opened.status).toBe(307);
    expect(opened.draftMode).toBe(true);
  });

  it('refuses a genuine token of another project with 403 naming both, draft mode off', async () => {
    const refused = await open(tokens.otherProject);
    expect(refused.status).toBe(403);
    expect(refused.text).toContain('project "other"');
    expect(refused.text).toContain('this site shows project "default", environment "production"');
    expect(refused.draftMode).toBe(false);
    expect(refused.cookie).toBeUndefined();
  });

  it('refuses a genuine token of another environment of the same project', async () => {
    const refused = await open(tokens.otherEnvironment);
    expect(refused.status).toBe(403);
    expect(refused.text).toContain('environment "staging"');
    expect(refused.draftMode).toBe(false);
  });

  it('takes the site’s project and environment from CMS_PROJECT and CMS_ENVIRONMENT', async () => {
    process.env.CMS_PROJECT = 'other';
    process.env.CMS_ENVIRONMENT = 'production';
    expect((await open(tokens.otherProject)).status).toBe(307);
    const refused = await open(tokens.own);
    expect(refused.status).toBe(403);
    expect(refused.draftMode).toBe(false);
    expect((await open(tokens.otherEnvironment, { project: 'default', environment: 'staging' })).status).toBe(307);
  });

  it('refuses a token whose project was rewritten to the site’s: its signature no longer holds', async () => {
    const forged = withClaims(tokens.otherProject, { project: 'default' });
    const refused = await open(forged);
    expect(refused.status).toBe(401);
    expect(refused.text).toContain('UNAUTHORIZED');
    expect(refused.draftMode).toBe(false);
  });
});
