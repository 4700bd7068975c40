/**
 * The built `cms` binary against a real server: schema sync, push, pull, status, the round-trip
 * guarantees, every conflict class, a stale revision, deletions and their gates.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startTestServer, type TestServer } from '../../../server/test/support/test-server.js';
import { buildCli, CONFIG_MJS, createWorkspace, type Workspace } from '../support/cli-harness.js';

// Each test runs the binary several times; a loaded machine makes a process start take seconds.
vi.setConfig({ testTimeout: 180_000 });

let server: TestServer;
let ws: Workspace;

// Files a person wrote by hand: comments, quote styles, YAML 1.1 traps, CRLF, BOM, no final newline.
const FILES: Record<string, string> = {
  'content/posts/hello.en.md':
    "---\n# The post's title\ntitle: 'Hello, world' # shown in lists\ndate: 2024-01-01\ntags: [ one,two ]\ndraft: false\nmood: \"no\"\n---\n# Hello\n\nSome *markdown* with `code`.\n",
  'content/posts/hello.fr.md': '---\ntitle: "Bonjour, le monde ☕"\ndraft: false\n---\nCorps en français\n',
  'content/pages/about.md': '\uFEFF---\r\ntitle: About us\r\n---\r\nLine one\r\nLine two\r\n',
  'content/pages/contact.mdx': '---\ntitle: Contact\n\n---\n<Form fields={{ a: 1 }} />\n\nno final newline',
  'content/pages/version.md':
    "---\ntitle: Version\nrelease: '3.10'\nzip: '0123'\ntime: '10:00'\n---\n---\nbody starting with a fence\n",
};

async function put(id: string, frontmatter: Record<string, unknown>, body: string, draftRevision: number) {
  const schema = await server.request('GET', '/api/v1/schema');
  return server.request('PUT', `/api/v1/content/${id}`, {
    body: { frontmatter, body, draftRevision },
    headers: { 'x-cms-schema-hash': schema.body.data.schemaHash },
  });
}

async function manifest() {
  return JSON.parse(await ws.read('.cms/default.production.json'));
}

async function idOf(file: string): Promise<string> {
  const m = await manifest();
  const entry = Object.values(m.documents).find((e: any) => e.file === file) as any;
  return entry.id;
}

beforeAll(async () => {
  buildCli();
  server = await startTestServer();
  ws = await createWorkspace({ CMS_SERVER_URL: server.url, CMS_API_KEY: server.adminKey });
  await ws.write('cms.config.mjs', CONFIG_MJS);
  for (const [file, text] of Object.entries(FILES)) await ws.write(file, text);
}, 120_000);

afterAll(async () => {
  await ws?.close();
  await server?.close();
});

describe('cms against a live server', () => {
  it('schema diff shows the change and exits 1; sync applies it; diff is then clean', async () => {
    const diff = await ws.run(['schema', 'diff', '--json']);
    expect(diff.code).toBe(1);
    expect(diff.json.data.changes.map((c: any) => `${c.change} ${c.type}`)).toEqual(['added post', 'added page']);
    const text = await ws.run(['schema', 'diff']);
    expect(text.stdout).toBe('+ type post\n+ type page\n');
    expect(text.stderr).toContain('2 change(s) (+ added, - removed, ~ changed)');
    expect(text.stderr).toContain('`cms schema sync` applies them');
    const dry = await ws.run(['schema', 'sync', '--dry-run']);
    expect(dry.code).toBe(0);
    expect(dry.stderr).toContain('Dry run: 2 change(s) shown above, nothing was synced.');
    const sync = await ws.run(['schema', 'sync', '--json']);
    expect(sync.code).toBe(0);
    expect(sync.json.data).toMatchObject({ synced: true, typesCount: 2 });
    const again = await ws.run(['schema', 'diff', '--json']);
    expect(again.code).toBe(0);
    expect(again.json.data.inSync).toBe(true);
  });

  it('status lists new local files and exits 1 (drift)', async () => {
    const status = await ws.run(['status', '--json']);
    expect(status.code).toBe(1);
    expect(status.json.data.counts).toEqual({ 'new-local': 5 });
  });

  it('push creates every document, keeps the files byte-identical, and joins locale siblings', async () => {
    const before = await ws.snapshot();
    const push = await ws.run(['push', '--json']);
    expect(push.code, push.stderr).toBe(0);
    expect(push.json.data.summary).toMatchObject({ created: 5, failed: 0, conflict: 0 });
    expect(await ws.snapshot()).toEqual(before);
    const m = await manifest();
    const en = Object.values(m.documents).find((e: any) => e.file === 'content/posts/hello.en.md') as any;
    const fr = Object.values(m.documents).find((e: any) => e.file === 'content/posts/hello.fr.md') as any;
    expect(en.translationGroupId).toBe(fr.translationGroupId);
    const doc = await server.request('GET', `/api/v1/content/${en.id}?draft=true`);
    expect(doc.body.data.frontmatter).toEqual({
      title: 'Hello, world',
      date: '2024-01-01',
      tags: ['one', 'two'],
      draft: false,
      mood: 'no',
    });
    const about = await server.request('GET', `/api/v1/content/${await idOf('content/pages/about.md')}?draft=true`);
    expect(about.body.data.body).toBe('Line one\nLine two\n');
  });

  it('push with no edits sends nothing: it succeeds even with the server unreachable', async () => {
    const push = await ws.run(['push', '--json'], { env: { CMS_SERVER_URL: 'http://127.0.0.1:9' } });
    expect(push.code, push.stderr).toBe(0);
    expect(push.json.data.results).toEqual([]);
  });

  it('pull after push rewrites nothing (pull, push, pull is byte-identical)', async () => {
    const before = await ws.snapshot();
    const pull = await ws.run(['pull', '--json']);
    expect(pull.code, pull.stderr).toBe(0);
    expect(pull.json.data.applied).toEqual([]);
    expect(await ws.snapshot()).toEqual(before);
    const status = await ws.run(['status']);
    expect(status.code).toBe(0);
  });

  it('a server edit is pulled into the one changed key; comments and quotes stay', async () => {
    const id = await idOf('content/posts/hello.en.md');
    const res = await put(
      id,
      { title: 'Hello, world', date: '2024-01-01', tags: ['one', 'two', 'three'], draft: false, mood: 'no' },
      '# Hello\n\nSome *markdown* with `code`.\n',
      1,
    );
    expect(res.status).toBe(200);
    const status = await ws.run(['status', '--json']);
    expect(status.code).toBe(1);
    expect(status.json.data.items).toEqual([
      { file: 'content/posts/hello.en.md', status: 'changed-remote', conflict: false, id },
    ]);
    const pull = await ws.run(['pull', '--json']);
    expect(pull.code).toBe(0);
    expect(await ws.read('content/posts/hello.en.md')).toBe(
      "---\n# The post's title\ntitle: 'Hello, world' # shown in lists\ndate: 2024-01-01\ntags: [ one,two,three ]\ndraft: false\nmood: \"no\"\n---\n# Hello\n\nSome *markdown* with `code`.\n",
    );
    expect((await manifest()).documents[id].draftRevision).toBe(2);
  });

  it('a local edit is pushed with the manifest revision', async () => {
    const file = 'content/pages/about.md';
    await ws.write(file, '\uFEFF---\r\ntitle: About the team\r\n---\r\nLine one\r\nLine two\r\n');
    const push = await ws.run(['push', '--json']);
    expect(push.code, push.stderr).toBe(0);
    expect(push.json.data.results).toEqual([
      { file, status: 'changed-local', outcome: 'updated', id: await idOf(file) },
    ]);
    const doc = await server.request('GET', `/api/v1/content/${await idOf(file)}?draft=true`);
    expect(doc.body.data.frontmatter.title).toBe('About the team');
  });

  it('changes on both sides: pull refuses (exit 5, file untouched), push meets a stale revision (exit 5)', async () => {
    const file = 'content/pages/version.md';
    const id = await idOf(file);
    const local =
      "---\ntitle: Version (local)\nrelease: '3.10'\nzip: '0123'\ntime: '10:00'\n---\n---\nbody starting with a fence\n";
    await ws.write(file, local);
    expect(
      (
        await put(
          id,
          { title: 'Version (server)', release: '3.10', zip: '0123', time: '10:00' },
          '---\nbody starting with a fence\n',
          1,
        )
      ).status,
    ).toBe(200);

    const status = await ws.run(['status', '--json']);
    expect(status.json.data.items).toEqual([{ file, status: 'changed-both', conflict: true, id }]);
    const pull = await ws.run(['pull', '--json']);
    expect(pull.code).toBe(5);
    expect(pull.json.data.conflicts).toMatchObject([
      { file, status: 'changed-both', remoteRevision: 2, manifestRevision: 1 },
    ]);
    expect(await ws.read(file)).toBe(local);

    const push = await ws.run(['push', '--json']);
    expect(push.code).toBe(5);
    expect(push.json.data.results).toMatchObject([
      {
        file,
        outcome: 'conflict',
        code: 'CONFLICT',
        message: 'changed on the server since the last sync (server revision 2, last synced 1); not overwritten',
      },
    ]);
    const text = await ws.run(['push']);
    expect(text.stderr).toContain(
      'Keep the server side with `cms pull --theirs <path>`, or yours with `cms push --ours <path>`.',
    );
    const doc = await server.request('GET', `/api/v1/content/${id}?draft=true`);
    expect(doc.body.data.frontmatter.title).toBe('Version (server)');
  });

  it('--ours overwrites the server for the named path; the next status is clean', async () => {
    const push = await ws.run(['push', '--ours', 'content/pages/version.md', '--json']);
    expect(push.code, push.stderr).toBe(0);
    expect(push.json.data.summary.updated).toBe(1);
    const status = await ws.run(['status', '--json']);
    expect(status.code).toBe(0);
  });

  it('--theirs takes the server side of a conflict', async () => {
    const file = 'content/pages/contact.mdx';
    const id = await idOf(file);
    await ws.write(file, '---\ntitle: Contact (local)\n\n---\n<Form fields={{ a: 1 }} />\n\nno final newline');
    expect(
      (await put(id, { title: 'Contact (server)' }, '<Form fields={{ a: 1 }} />\n\nno final newline', 1)).status,
    ).toBe(200);
    const pull = await ws.run(['pull', '--theirs', file, '--json']);
    expect(pull.code, pull.stderr).toBe(0);
    expect(await ws.read(file)).toBe(
      '---\ntitle: Contact (server)\n\n---\n<Form fields={{ a: 1 }} />\n\nno final newline',
    );
  });

  it('--theirs or --ours naming no document file is a usage error that suggests the close name', async () => {
    const pull = await ws.run(['pull', '--theirs', 'content/pages/contct.mdx', '--json']);
    expect(pull.code).toBe(2);
    expect(pull.json.error).toMatchObject({
      code: 'UNKNOWN_PATH',
      hint: expect.stringContaining('content/pages/contact.mdx'),
    });
    const push = await ws.run(['push', '--ours', 'content/postz', '--json']);
    expect(push.code).toBe(2);
    expect(push.json.error.hint).toContain('Did you mean content/posts?');
  });

  it('a local edit of a document deleted on the server: push calls it a conflict, --ours creates it again', async () => {
    const file = 'content/pages/gone.md';
    await ws.write(file, '---\ntitle: Gone\n---\nfirst\n');
    expect((await ws.run(['push', '--json'])).code).toBe(0);
    const id = await idOf(file);
    expect((await server.request('DELETE', `/api/v1/content/${id}`)).status).toBe(200);
    await ws.write(file, '---\ntitle: Gone\n---\nedited here\n');
    const push = await ws.run(['push', '--json']);
    expect(push.code).toBe(5);
    expect(push.json.data.results).toMatchObject([
      {
        file,
        outcome: 'conflict',
        code: 'DELETED_REMOTELY',
        message: expect.stringContaining('deleted on the server'),
      },
    ]);
    const ours = await ws.run(['push', '--ours', file, '--json']);
    expect(ours.code, ours.stderr).toBe(0);
    expect(ours.json.data.results).toMatchObject([{ file, outcome: 'created' }]);
    const again = await idOf(file);
    expect(again).not.toBe(id);
    expect((await server.request('GET', `/api/v1/content/${again}?draft=true`)).body.data.body).toBe('edited here\n');
    expect((await ws.run(['status', '--json'])).code).toBe(0);
    await (await import('node:fs/promises')).rm(`${ws.dir}/${file}`);
    expect((await ws.run(['push', '--force', '--json'])).json.data.summary.deleted).toBe(1);
  });

  it('a document deleted on the server: pull asks, --yes deletes the file', async () => {
    const file = 'content/posts/hello.fr.md';
    const id = await idOf(file);
    expect((await server.request('DELETE', `/api/v1/content/${id}`)).status).toBe(200);
    const status = await ws.run(['status', '--json']);
    expect(status.json.data.items).toEqual([{ file, status: 'deleted-remote', conflict: false, id }]);
    const refused = await ws.run(['pull', '--json']);
    expect(refused.code).toBe(3);
    expect(refused.json.error.code).toBe('CONFIRMATION_REQUIRED');
    expect(await ws.read(file)).toBeTruthy();
    const pull = await ws.run(['pull', '--yes', '--json']);
    expect(pull.code, pull.stderr).toBe(0);
    await expect(ws.read(file)).rejects.toThrow();
    expect((await manifest()).documents[id]).toBeUndefined();
  });

  it('pull --theirs <path> brings back a file deleted or edited locally; pull alone leaves local changes', async () => {
    const file = 'content/pages/contact.mdx';
    const server = await ws.read(file);
    const { rm } = await import('node:fs/promises');
    await rm(`${ws.dir}/${file}`);
    const kept = await ws.run(['pull', '--json']);
    expect(kept.code, kept.stderr).toBe(0);
    expect(kept.json.data.skipped).toMatchObject([{ file, status: 'deleted-local' }]);
    const said = await ws.run(['pull']);
    expect(said.stdout + said.stderr).toContain('Nothing pulled: the skipped files have local changes.');
    expect(said.stdout + said.stderr).not.toContain('Already up to date');
    await expect(ws.read(file)).rejects.toThrow();
    const restored = await ws.run(['pull', '--theirs', file, '--json']);
    expect(restored.code, restored.stderr).toBe(0);
    expect(restored.json.data.applied).toMatchObject([{ file, status: 'deleted-local', action: 'created file' }]);
    // Written from the source the server kept: the pushed bytes (the blank line before the closing
    // fence included) with the server's title patched in, i.e. the file as it was before the deletion.
    const written = await ws.read(file);
    expect(server).toContain('title: Contact (server)\n');
    expect(written).toBe('---\ntitle: Contact (server)\n\n---\n<Form fields={{ a: 1 }} />\n\nno final newline');
    expect(written).toBe(server);
    await ws.write(file, written.replace('Contact (server)', 'Contact (unpushed)'));
    const edited = await ws.run(['pull', '--theirs', file, '--json']);
    expect(edited.json.data.applied).toMatchObject([{ file, status: 'changed-local', action: 'updated file' }]);
    expect(await ws.read(file)).toBe(written);
    expect((await ws.run(['status', '--json'])).code).toBe(0);
  });

  it('a file deleted locally: push asks, --force deletes the document', async () => {
    const file = 'content/pages/contact.mdx';
    const id = await idOf(file);
    const { rm } = await import('node:fs/promises');
    await rm(`${ws.dir}/${file}`);
    const refused = await ws.run(['push', '--json']);
    expect(refused.code).toBe(3);
    const push = await ws.run(['push', '--force', '--json']);
    expect(push.code, push.stderr).toBe(0);
    expect(push.json.data.summary.deleted).toBe(1);
    const doc = await server.request('GET', `/api/v1/content/${id}?draft=true`);
    expect(doc.status).toBe(404);
  });

  it('a document created on the server is pulled into a canonical new file, a fixed point', async () => {
    const schema = await server.request('GET', '/api/v1/schema');
    const created = await server.request('POST', '/api/v1/content', {
      body: { type: 'page', path: 'team/jobs', frontmatter: { title: 'Jobs: we hire' }, body: 'Apply now.\n' },
      headers: { 'x-cms-schema-hash': schema.body.data.schemaHash },
    });
    expect(created.status).toBe(201);
    const pull = await ws.run(['pull', '--json']);
    expect(pull.code, pull.stderr).toBe(0);
    expect(await ws.read('content/pages/team/jobs.md')).toBe('---\ntitle: "Jobs: we hire"\n---\nApply now.\n');
    const before = await ws.snapshot();
    expect((await ws.run(['push', '--json'])).json.data.results).toEqual([]);
    expect((await ws.run(['pull', '--json'])).json.data.applied).toEqual([]);
    expect(await ws.snapshot()).toEqual(before);
  });

  it('publish publishes tracked files', async () => {
    const publish = await ws.run(['publish', 'content/posts/hello.en.md', '--json']);
    expect(publish.code, publish.stderr).toBe(0);
    expect(publish.json.data.results).toMatchObject([{ outcome: 'published', version: 1 }]);
    const untracked = await ws.run(['publish', 'content/nope.md', '--json']);
    expect(untracked.code).toBe(2);
    const typo = await ws.run(['publish', 'helo', '--json']);
    expect(typo.code).toBe(2);
    expect(typo.json.error.hint).toContain('Did you mean hello?');
  });

  it('publish refuses a file edited since the last sync: its edit is not on the server', async () => {
    const file = 'content/posts/hello.en.md';
    const synced = await ws.read(file);
    const published = async () =>
      (await server.request('GET', `/api/v1/content/${await idOf(file)}?draft=true`)).body.data.publishedVersion;
    const before = await published();
    await ws.write(file, synced.replace('# Hello', '# Hello again'));
    const refused = await ws.run(['publish', file, '--json']);
    expect(refused.code).toBe(1);
    expect(refused.json.data.results).toMatchObject([{ file, outcome: 'failed', code: 'NOT_PUSHED' }]);
    const text = await ws.run(['publish', file]);
    expect(text.stderr).toContain('Run `cms push`, then publish again');
    expect(await published()).toBe(before);
    await ws.write(file, synced);
  });

  it('a file the server refuses is reported with every invalid field, not only the first', async () => {
    const file = 'content/posts/invalid.en.md';
    await ws.write(file, '---\ndate: 2024-05-01\ndraft: nope\n---\nNo title\n');
    const push = await ws.run(['push', '--json']);
    expect(push.code).toBe(1);
    const [result] = push.json.data.results;
    expect(result).toMatchObject({ file, outcome: 'failed', code: 'INVALID_INPUT' });
    expect(result.message).toContain('draft: must be true or false, got the string "nope"');
    expect(result.message).toContain('title: is required');
    await (await import('node:fs/promises')).rm(`${ws.dir}/${file}`);
  });

  it('a bad frontmatter file is named with its line, and nothing is sent', async () => {
    await ws.write('content/pages/broken.md', '---\ntitle: a\ntitle: b\n---\n');
    const push = await ws.run(['push', '--json']);
    expect(push.code).toBe(1);
    expect(push.json.error.code).toBe('FRONTMATTER_INVALID');
    expect(push.json.error.message).toMatch(/content\/pages\/broken\.md:\d+/);
    const { rm } = await import('node:fs/promises');
    await rm(`${ws.dir}/content/pages/broken.md`);
  });
});
