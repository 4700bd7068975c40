/**
 * The manifest's base through the built binary: `cms status --diff` shows each side against the
 * last sync, `cms pull` and `cms push` merge edits of different keys and lines three-way, overlapping
 * edits stay a conflict (exit 5, the file untouched) unless `--merge` writes conflict markers, which
 * status and push then refuse until they are resolved. Pulled files are compared byte for byte.
 */
import { describe, expect, it, vi } from 'vitest';
import type { Workspace } from '../support/cli-harness.js';
import { cliSuite } from '../support/cli-suite.js';

vi.setConfig({ testTimeout: 180_000 });

const suite = cliSuite();

// Comments, a flow list, a quoted value and CRLF-free body lines far enough apart to merge.
const ORIGINAL =
  '---\n# keep this comment\ntitle: "Guide"\ntags: [a, b]\n---\nLine one.\n\nLine two.\n\nLine three.\n\nLine four.\n';

/** Pushes the original file; answers its document id and manifest entry. */
async function pushed(ws: Workspace, file: string): Promise<{ id: string; revision: number }> {
  expect((await ws.run(['schema', 'sync', '--yes'])).code).toBe(0);
  // The server is shared by the tests of this file: start from what the others left.
  expect((await ws.run(['pull'])).code).toBe(0);
  await ws.write(file, ORIGINAL);
  const push = await ws.run(['push', '--json']);
  expect(push.code, push.stdout).toBe(0);
  const manifest = JSON.parse(await ws.read('.cms/default.production.json'));
  const [id, entry] = Object.entries(manifest.documents).find(([, e]) => (e as { file: string }).file === file) as [
    string,
    { draftRevision: number; base?: string },
  ];
  expect(entry.base).toMatch(/^[0-9a-f]{64}$/);
  return { id, revision: entry.draftRevision };
}

/** Another person's edit through the API: the server patches only the lines of what changed. */
async function serverEdit(id: string, revision: number, frontmatter: Record<string, unknown>, body: string) {
  const answer = await suite.server().request('PUT', `/api/v1/content/${id}`, {
    headers: { 'x-cms-schema-hash': await suite.schemaHash() },
    body: { frontmatter, body, draftRevision: revision },
  });
  expect(answer.status, answer.text).toBe(200);
}

describe('three-way sync against the base', () => {
  it('shows both sides as diffs, merges different keys and lines, and pushes the merge', async () => {
    const FILE = 'content/pages/guide.md';
    const ws = await suite.workspace();
    const { id, revision } = await pushed(ws, FILE);
    // The server changes the tags and the last line; the file changes the title and the first line.
    await serverEdit(
      id,
      revision,
      { title: 'Guide', tags: ['a', 'b', 'c'] },
      'Line one.\n\nLine two.\n\nLine three.\n\nLine four, edited.\n',
    );
    await ws.write(FILE, ORIGINAL.replace('"Guide"', '"My guide"').replace('Line one.', 'Line one, mine.'));

    const status = await ws.run(['status', '--diff', '--json']);
    expect(status.code).toBe(1);
    const [item] = status.json.data.items;
    expect(item).toMatchObject({ file: FILE, status: 'changed-both', conflict: true, merge: 'clean' });
    expect(item.diff.local).toContain('-title: "Guide"\n+title: "My guide"');
    expect(item.diff.local).toContain('+Line one, mine.');
    expect(item.diff.server).toContain('-tags: [a, b]\n+tags: [a, b, c]');
    expect(item.diff.server).toContain('+Line four, edited.');
    const human = await ws.run(['status', '--diff']);
    expect(human.stdout).toContain('merges cleanly');
    expect(human.stdout).toContain('    +title: "My guide"');

    const pull = await ws.run(['pull', '--json']);
    expect(pull.code, pull.stdout).toBe(0);
    expect(pull.json.data.applied).toEqual([expect.objectContaining({ file: FILE, action: 'merged' })]);
    const merged =
      '---\n# keep this comment\ntitle: "My guide"\ntags: [a, b, c]\n---\nLine one, mine.\n\nLine two.\n\nLine three.\n\nLine four, edited.\n';
    expect(await ws.read(FILE)).toBe(merged);

    // The merge is a local change on top of the server's revision: push sends it without conflict.
    const push = await ws.run(['push', '--json']);
    expect(push.code, push.stdout).toBe(0);
    expect(push.json.data.summary).toMatchObject({ updated: 1, conflict: 0 });
    const fresh = await suite.workspace();
    expect((await fresh.run(['pull'])).code).toBe(0);
    expect(await fresh.read(FILE)).toBe(merged);
  });

  it('push merges edits of different keys and lines itself, sends the merge and writes it into the file', async () => {
    const FILE = 'content/pages/push-merge.md';
    const ws = await suite.workspace();
    const { id, revision } = await pushed(ws, FILE);
    await serverEdit(
      id,
      revision,
      { title: 'Guide', tags: ['a', 'b', 'c'] },
      'Line one.\n\nLine two.\n\nLine three.\n\nLine four, edited.\n',
    );
    await ws.write(FILE, ORIGINAL.replace('"Guide"', '"My guide"').replace('Line one.', 'Line one, mine.'));

    const push = await ws.run(['push', '--json']);
    expect(push.code, push.stdout).toBe(0);
    expect(push.json.data.summary).toMatchObject({ updated: 1, conflict: 0 });
    expect(push.json.data.results[0]).toMatchObject({ file: FILE, outcome: 'updated', merge: 'clean' });
    const merged =
      '---\n# keep this comment\ntitle: "My guide"\ntags: [a, b, c]\n---\nLine one, mine.\n\nLine two.\n\nLine three.\n\nLine four, edited.\n';
    expect(await ws.read(FILE)).toBe(merged);
    const doc = await suite.server().request('GET', `/api/v1/content/${id}?draft=true`);
    expect(doc.body.data.source).toBe(merged);
    // In sync afterwards: the merge is the new base on both sides.
    const status = await ws.run(['status', '--json']);
    expect(status.code, status.stdout).toBe(0);
    const fresh = await suite.workspace();
    expect((await fresh.run(['pull'])).code).toBe(0);
    expect(await fresh.read(FILE)).toBe(merged);
  });

  it('keeps overlapping edits a conflict, writes markers with --merge, and refuses them until resolved', async () => {
    const FILE = 'content/pages/overlap.md';
    const ws = await suite.workspace();
    const { id, revision } = await pushed(ws, FILE);
    await serverEdit(
      id,
      revision,
      { title: 'Theirs', tags: ['a', 'b'] },
      'Line one.\n\nLine two.\n\nLine three.\n\nLine four.\n',
    );
    const mine = ORIGINAL.replace('"Guide"', '"Mine"');
    await ws.write(FILE, mine);

    // Push meets the stale revision: both sides as diffs, nothing merged or overwritten (exit 5).
    const stale = await ws.run(['push', '--json']);
    expect(stale.code).toBe(5);
    expect(stale.json.data.results[0]).toMatchObject({ file: FILE, outcome: 'conflict', merge: 'conflict' });
    expect(stale.json.data.results[0].diff.server).toContain('+title: "Theirs"');
    expect(await ws.read(FILE)).toBe(mine);

    const pull = await ws.run(['pull', '--json']);
    expect(pull.code).toBe(5);
    expect(pull.json.data.conflicts).toEqual([
      expect.objectContaining({ file: FILE, status: 'changed-both', keys: ['title'], markers: false }),
    ]);
    expect(pull.json.data.conflicts[0].diff.server).toContain('+title: "Theirs"');
    expect(await ws.read(FILE)).toBe(mine);

    const marked = await ws.run(['pull', '--merge', '--json']);
    expect(marked.code).toBe(5);
    expect(marked.json.data.conflicts[0]).toMatchObject({ markers: true });
    expect(await ws.read(FILE)).toBe(
      '---\n# keep this comment\n<<<<<<< local\ntitle: "Mine"\n=======\ntitle: "Theirs"\n>>>>>>> server\ntags: [a, b]\n---\nLine one.\n\nLine two.\n\nLine three.\n\nLine four.\n',
    );
    const status = await ws.run(['status', '--json']);
    expect(status.code).toBe(5);
    expect(status.json.error).toMatchObject({ code: 'UNRESOLVED_CONFLICT' });
    const refused = await ws.run(['push', '--json']);
    expect(refused.code).toBe(5);

    // Resolved by hand: pushed against the server's revision, no conflict left.
    await ws.write(FILE, ORIGINAL.replace('"Guide"', '"Mine and theirs"'));
    const push = await ws.run(['push', '--json']);
    expect(push.code, push.stdout).toBe(0);
    expect(push.json.data.summary).toMatchObject({ updated: 1 });
    const doc = await suite.server().request('GET', `/api/v1/content/${id}?draft=true`);
    expect(doc.body.data.frontmatter.title).toBe('Mine and theirs');
  });

  it('sees a server change in status through the digest, and nothing when nothing changed', async () => {
    const FILE = 'content/pages/digest.md';
    const ws = await suite.workspace();
    const { id, revision } = await pushed(ws, FILE);
    const quiet = await ws.run(['status', '--json']);
    expect(quiet.code, quiet.stdout).toBe(0);
    await serverEdit(
      id,
      revision,
      { title: 'Renamed', tags: ['a', 'b'] },
      'Line one.\n\nLine two.\n\nLine three.\n\nLine four.\n',
    );
    const status = await ws.run(['status', '--diff', '--json']);
    expect(status.code).toBe(1);
    expect(status.json.data.items).toEqual([
      expect.objectContaining({
        file: FILE,
        status: 'changed-remote',
        diff: expect.objectContaining({ server: expect.stringContaining('+title: "Renamed"') }),
      }),
    ]);
    const pull = await ws.run(['pull', '--json']);
    expect(pull.code).toBe(0);
    expect(await ws.read(FILE)).toBe(ORIGINAL.replace('title: "Guide"', 'title: "Renamed"'));
  });
});
