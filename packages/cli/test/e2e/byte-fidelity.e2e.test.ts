/**
 * Byte fidelity through the server, through the built binary: what `cms push` sent comes back byte
 * for byte in an empty folder (a teammate's first pull, a cloned environment), for hand-made
 * fixtures and for generated frontmatter; an API edit of one key changes only that key's line.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { parseDocument } from 'yaml';
import { startTestServer, type TestServer } from '../../../server/test/support/test-server.js';
import { buildCli, createWorkspace, type Workspace } from '../support/cli-harness.js';

vi.setConfig({ testTimeout: 240_000 });

let server: TestServer;

beforeAll(async () => {
  buildCli();
  server = await startTestServer();
}, 120_000);

afterAll(async () => {
  await server?.close();
});

const CONFIG = `export default {
  locales: ['en', 'de'],
  types: [
    {
      name: 'note',
      directory: 'notes',
      localized: true,
      fields: { title: { kind: 'string', required: true }, date: { kind: 'date' }, tags: { kind: 'array', items: { kind: 'string' } } },
    },
  ],
};
`;

const projects = new Set<string>();

async function workspaceFor(project: string, environment = 'production'): Promise<Workspace> {
  if (!projects.has(project)) {
    const created = await server.request('POST', '/api/v1/projects', { body: { slug: project } });
    expect(created.status, created.text).toBe(201);
    projects.add(project);
  }
  const ws = await createWorkspace({
    CMS_SERVER_URL: server.url,
    CMS_API_KEY: server.adminKey,
    CMS_PROJECT: project,
    CMS_ENVIRONMENT: environment,
  });
  await ws.write('cms.config.mjs', CONFIG);
  return ws;
}

/** The files of a workspace that are documents. */
async function notes(ws: Workspace): Promise<Record<string, string>> {
  const all = await ws.snapshot();
  return Object.fromEntries(Object.entries(all).filter(([name]) => name.startsWith('notes/')));
}

const FIXTURES: Record<string, string> = {
  'notes/comments.en.md':
    '---\n# NOTE: do not edit by hand\ntitle: Comments # trailing\n\n# own line\ntags: [a, b]\n---\nBody\n',
  'notes/flow.en.md': "---\ntitle: 'Flow'\ntags: [ 'ssr', \"static\", edge ]\nsupports: {a: 1, b: [x]}\n---\n",
  'notes/crlf.en.md': '---\r\ntitle: CRLF\r\ndate: 2024-01-01\r\n---\r\nline one\r\nline two\r\n',
  'notes/stray-crlf.en.md': '---\ntitle: Stray\r\nshort-title: s\n---\nmixed\r\nendings\n',
  'notes/quoting.en.md':
    '---\ntitle: "Double"\nanswer: y\nno-bool: no\nversion: "3.10"\ntime: 10:00\nzip: "0123"\nempty: ""\nnull-value: ~\n---\n',
  'notes/bom.en.md': '\uFEFF---\ntitle: BOM\n---\nno final newline',
  'notes/nested.de.md':
    '---\ntitle: Verschachtelt\nl10n:\n  sourceCommit: abc123\n  authors:\n    - Ann\n    - Bob\nblock: |\n  literal\n  text\n---\n---\nbody starts with a fence\n',
  'notes/blank-before-fence.en.md': '---\ntitle: Blank\n\n---\n\n\nbody after blank lines\n\n',
  'notes/unicode.en.md': '---\ntitle: "Ünïcödé — 日本語 😀"\ndate: 2024-01-01T10:00:00+02:00\n---\nÇa va\n',
};

describe('byte fidelity through the server', () => {
  it('gives the pushed bytes back to a fresh pull, a cloned environment, and patches one line for an API edit', async () => {
    const ws = await workspaceFor('bytes');
    for (const [name, text] of Object.entries(FIXTURES)) await ws.write(name, text);
    expect((await ws.run(['schema', 'sync', '--yes'])).code).toBe(0);
    const push = await ws.run(['push', '--json']);
    expect(push.code, push.stdout).toBe(0);
    expect(push.json.data.summary).toMatchObject({ created: Object.keys(FIXTURES).length, failed: 0 });
    expect(await notes(ws)).toEqual(FIXTURES);

    // A teammate with the config and an empty folder.
    const mate = await workspaceFor('bytes');
    const pull = await mate.run(['pull', '--json']);
    expect(pull.code, pull.stderr).toBe(0);
    expect(await notes(mate)).toEqual(FIXTURES);

    // An edit through the API (no source sent) rewrites only the title's line.
    const list = await server.request('GET', '/api/v1/content?type=note&draft=true&limit=100', { project: 'bytes' });
    const doc = list.body.data.find((d: any) => d.path === 'comments');
    expect(doc.source).toBe(FIXTURES['notes/comments.en.md']);
    const schema = await server.request('GET', '/api/v1/schema', { project: 'bytes' });
    const edited = await server.request('PUT', `/api/v1/content/${doc.documentId}`, {
      project: 'bytes',
      headers: { 'x-cms-schema-hash': schema.body.data.schemaHash },
      body: { frontmatter: { ...doc.frontmatter, title: 'Edited' }, body: doc.body, draftRevision: doc.draftRevision },
    });
    expect(edited.status, edited.text).toBe(200);
    const expected = FIXTURES['notes/comments.en.md']?.replace(
      'title: Comments # trailing',
      'title: Edited # trailing',
    );
    expect(edited.body.data.source).toBe(expected);
    const third = await workspaceFor('bytes');
    expect((await third.run(['pull', '--json'])).code).toBe(0);
    expect((await notes(third))['notes/comments.en.md']).toBe(expected);
    // The teammate who already had the file gets the same single-line change.
    expect((await mate.run(['pull', '--json'])).code).toBe(0);
    expect((await notes(mate))['notes/comments.en.md']).toBe(expected);

    // A cloned environment's files are the same bytes.
    const clone = await ws.run(['env', 'clone', 'production', 'copy', '--json']);
    expect(clone.code, clone.stdout).toBe(0);
    const copy = await workspaceFor('bytes', 'copy');
    expect((await copy.run(['pull', '--json'])).code).toBe(0);
    expect(await notes(copy)).toEqual({ ...FIXTURES, 'notes/comments.en.md': expected });
    for (const w of [ws, mate, third, copy]) await w.close();
  });

  it('gives generated frontmatter back byte for byte (comments, flow and block, quoting, dates, unicode)', async () => {
    const key = fc.stringMatching(/^[a-z][a-z0-9_-]{0,10}$/).filter((k) => !['title', 'date', 'tags'].includes(k));
    const text = fc.oneof(
      fc.string({ maxLength: 12 }),
      fc.constantFrom('y', 'no', 'on', '3.10', '0123', '10:00', 'é😀'),
    );
    const scalar = fc.oneof(
      text.map((s) => JSON.stringify(s)),
      text.map((s) => `'${s.replace(/'/g, "''")}'`),
      fc.stringMatching(/^[a-z][a-z ]{0,10}[a-z]$/),
      fc.integer({ min: -1000, max: 1000 }).map(String),
      fc.constantFrom('true', 'false', '~', '2024-02-29', '2024-01-01T10:00:00Z'),
    );
    const value = fc.oneof(
      scalar,
      fc.array(scalar, { maxLength: 3 }).map((items) => `[${items.join(', ')}]`),
      fc.array(scalar, { minLength: 1, maxLength: 3 }).map((items) => `\n${items.map((i) => `  - ${i}`).join('\n')}`),
    );
    const line = fc.tuple(key, value, fc.option(fc.constantFrom(' # note', ' #x'), { nil: '' }));
    const file = fc.record({
      lines: fc.uniqueArray(line, { selector: (l) => l[0], maxLength: 6 }),
      lead: fc.option(fc.constant('# generated\n'), { nil: '' }),
      eol: fc.constantFrom('\n', '\r\n'),
      body: fc.string({ maxLength: 30 }).map((b) => b.replace(/\r/g, '')),
      final: fc.boolean(),
    });
    const samples = fc.sample(file, { numRuns: 40, seed: 20261127 });
    const ws = await workspaceFor('generated');
    const written: Record<string, string> = {};
    samples.forEach((s, i) => {
      const yaml = `${s.lead}title: t${i}\n${s.lines.map(([k, v, c]) => `${k}: ${v}${v.startsWith('\n') ? '' : c}`).join('\n')}${s.lines.length ? '\n' : ''}`;
      if (parseDocument(yaml, { uniqueKeys: true }).errors.length > 0) return;
      const raw = `---\n${yaml}---\n${s.body}${s.final ? '\n' : ''}`;
      written[`notes/g${i}.en.md`] = raw.replace(/\n/g, s.eol);
    });
    expect(Object.keys(written).length).toBeGreaterThan(20);
    for (const [name, t] of Object.entries(written)) await ws.write(name, t);
    expect((await ws.run(['schema', 'sync', '--yes'])).code).toBe(0);
    const push = await ws.run(['push', '--json']);
    expect(push.code, push.stdout).toBe(0);
    const mate = await workspaceFor('generated');
    expect((await mate.run(['pull', '--json'])).code).toBe(0);
    const pulled = await notes(mate);
    for (const [name, t] of Object.entries(written)) expect(pulled[name], name).toBe(t);
    await ws.close();
    await mate.close();
  });
});
