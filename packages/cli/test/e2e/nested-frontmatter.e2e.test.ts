/**
 * The built `cms` binary against a real server, for values below the top level: dates in objects
 * and in lists (block and flow) stay as written through push and pull, the defaults the server adds
 * inside an object go into the file in place, and a server edit deep inside changes only its bytes.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startTestServer, type TestServer } from '../../../server/test/support/test-server.js';
import { buildCli, createWorkspace, type Workspace } from '../support/cli-harness.js';

vi.setConfig({ testTimeout: 180_000 });

const CONFIG = `export default {
  project: 'default',
  environment: 'production',
  types: [
    {
      name: 'event',
      directory: 'content/events',
      fields: {
        title: { kind: 'string', required: true },
        date: { kind: 'date' },
        seo: {
          kind: 'object',
          fields: {
            description: { kind: 'string' },
            published: { kind: 'date' },
            noindex: { kind: 'boolean', default: false },
          },
        },
        sessions: {
          kind: 'array',
          items: { kind: 'object', fields: { at: { kind: 'date' }, name: { kind: 'string' } } },
        },
        days: { kind: 'array', items: { kind: 'date' } },
      },
    },
  ],
};
`;

const BLOCK = `---
title: Launch # block style
date: 2026-01-02
seo:
  # what search engines see
  description: The launch
  published: 2026-01-02
  noindex: false
sessions:
  - at: 2026-01-05T10:00:00+01:00
    name: Keynote
  - at: 2026-01-05T14:00:00+01:00
    name: Workshop
days:
  - 2026-01-05
  - 2026-01-06
---
Block body
`;

const FLOW = `---
title: Meetup
seo: { published: 2026-02-01 }
sessions: [{ at: 2026-02-03, name: Talks }]
days: [2026-02-03]
---
Flow body
`;

let server: TestServer;
let ws: Workspace;

async function idOf(file: string): Promise<string> {
  const manifest = JSON.parse(await ws.read('.cms/default.production.json'));
  return (Object.values(manifest.documents) as Array<{ id: string; file: string }>).find((e) => e.file === file)
    ?.id as string;
}

/** Changes a document on the server, as an editor in the Studio would. */
async function editOnServer(file: string, edit: (frontmatter: any) => void): Promise<void> {
  const id = await idOf(file);
  const doc = (await server.request('GET', `/api/v1/content/${id}?draft=true`)).body.data;
  edit(doc.frontmatter);
  const schema = await server.request('GET', '/api/v1/schema');
  const put = await server.request('PUT', `/api/v1/content/${id}`, {
    body: { frontmatter: doc.frontmatter, body: doc.body, draftRevision: doc.draftRevision },
    headers: { 'x-cms-schema-hash': schema.body.data.schemaHash },
  });
  expect(put.status, JSON.stringify(put.body)).toBe(200);
}

beforeAll(async () => {
  buildCli();
  server = await startTestServer();
  ws = await createWorkspace({ CMS_SERVER_URL: server.url, CMS_API_KEY: server.adminKey });
  await ws.write('cms.config.mjs', CONFIG);
  await ws.write('content/events/launch.md', BLOCK);
  await ws.write('content/events/meetup.md', FLOW);
  const sync = await ws.run(['schema', 'sync', '--json']);
  expect(sync.code, sync.stderr).toBe(0);
}, 120_000);

afterAll(async () => {
  await ws?.close();
  await server?.close();
});

describe('dates and defaults below the top level', () => {
  it('push keeps the files; a default the server adds inside an object goes in place, the date stays plain', async () => {
    const push = await ws.run(['push', '--json']);
    expect(push.code, push.stderr).toBe(0);
    expect(push.json.data.summary).toMatchObject({ created: 2, failed: 0 });
    expect(await ws.read('content/events/launch.md')).toBe(BLOCK);
    expect(await ws.read('content/events/meetup.md')).toBe(
      FLOW.replace('seo: { published: 2026-02-01 }', 'seo: { published: 2026-02-01, noindex: false }'),
    );
  });

  it('a pull after the push rewrites nothing', async () => {
    const before = await ws.snapshot();
    const pull = await ws.run(['pull', '--json']);
    expect(pull.code, pull.stderr).toBe(0);
    expect(pull.json.data.applied).toEqual([]);
    expect(await ws.snapshot()).toEqual(before);
  });

  it('a server edit deep inside changes only those bytes; dates around it stay plain', async () => {
    await editOnServer('content/events/launch.md', (fm) => {
      fm.seo.description = 'The big launch';
      fm.sessions[1].name = 'Hands-on workshop';
    });
    await editOnServer('content/events/meetup.md', (fm) => {
      fm.sessions[0].name = 'Lightning talks';
      fm.days.push('2026-02-04');
    });
    const pull = await ws.run(['pull', '--json']);
    expect(pull.code, pull.stderr).toBe(0);
    expect(pull.json.data.applied).toHaveLength(2);
    expect(await ws.read('content/events/launch.md')).toBe(
      BLOCK.replace('description: The launch', 'description: The big launch').replace(
        'name: Workshop',
        'name: Hands-on workshop',
      ),
    );
    expect(await ws.read('content/events/meetup.md')).toBe(
      '---\ntitle: Meetup\nseo: { published: 2026-02-01, noindex: false }\nsessions: [{ at: 2026-02-03, name: Lightning talks }]\ndays: [2026-02-03, 2026-02-04]\n---\nFlow body\n',
    );
    const status = await ws.run(['status', '--json']);
    expect(status.code, JSON.stringify(status.json)).toBe(0);
  });

  it('a nested date changed on the server is written plain', async () => {
    await editOnServer('content/events/launch.md', (fm) => {
      fm.seo.published = '2026-01-03';
      fm.sessions[0].at = '2026-01-05T09:30:00+01:00';
    });
    const pull = await ws.run(['pull', '--json']);
    expect(pull.code, pull.stderr).toBe(0);
    const text = await ws.read('content/events/launch.md');
    expect(text).toContain('  published: 2026-01-03\n');
    expect(text).toContain('  - at: 2026-01-05T09:30:00+01:00\n    name: Keynote\n');
    expect(text).toContain('  # what search engines see\n');
  });

  it('a document created on the server becomes a file with plain dates at every depth, in schema order', async () => {
    const schema = await server.request('GET', '/api/v1/schema');
    const created = await server.request('POST', '/api/v1/content', {
      body: {
        type: 'event',
        path: 'summit',
        frontmatter: {
          sessions: [{ name: 'Opening', at: '2026-03-01T09:00:00Z' }],
          seo: { published: '2026-02-20', description: 'Summit' },
          title: 'Summit',
          date: '2026-03-01',
          days: ['2026-03-01'],
        },
        body: 'Summit body\n',
      },
      headers: { 'x-cms-schema-hash': schema.body.data.schemaHash },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const pull = await ws.run(['pull', '--json']);
    expect(pull.code, pull.stderr).toBe(0);
    expect(await ws.read('content/events/summit.md')).toBe(
      '---\ntitle: Summit\ndate: 2026-03-01\nseo:\n  description: Summit\n  published: 2026-02-20\n  noindex: false\nsessions:\n  - at: 2026-03-01T09:00:00Z\n    name: Opening\ndays:\n  - 2026-03-01\n---\nSummit body\n',
    );
    const before = await ws.snapshot();
    expect((await ws.run(['push', '--json'])).json.data.results).toEqual([]);
    expect((await ws.run(['pull', '--json'])).json.data.applied).toEqual([]);
    expect(await ws.snapshot()).toEqual(before);
  });
});
