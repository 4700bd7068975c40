/**
 * Modules' command-line surface through the built binary against a real server: the aliases of
 * `core.system` (`cms settings show|set`) and `domain.content` (`cms content list|migrate`, `cms media
 * list`), their flags from the action's request schema, their formatters (`--json` prints the data)
 * and their preflights (a key without the capability, a config schema the server does not have).
 */
import { describe, expect, it, vi } from 'vitest';
import { CONFIG_MJS } from '../support/cli-harness.js';
import { cliSuite } from '../support/cli-suite.js';

vi.setConfig({ testTimeout: 180_000 });

const suite = cliSuite();

describe('core.system: cms settings', () => {
  it('lists the module groups in `cms --help` and the flags of the action in the alias help', async () => {
    const ws = await suite.workspace();
    const help = await ws.run(['--help']);
    expect(help.stdout).toMatch(/settings\s+Settings on the server: show, set \(module\s+core\.system\)/);
    expect(help.stdout).toMatch(/content\s+Content on the server: list, get, search,\s+migrate/);
    const set = await ws.run(['settings', 'set', '--help']);
    expect(set.code).toBe(0);
    expect(set.stdout).toContain('--media-image-max-bytes <n>');
    expect(set.stdout).toContain('--preview-url <value>');
    // Each option says what it does, not only its name.
    expect(set.stdout).toMatch(/--media-image-max-bytes <n>\s+largest image upload in bytes/);
    expect(set.stdout).toMatch(/--preview-url <value>\s+the live preview address, with \{path\}/);
    const list = await ws.run(['content', 'list', '--help']);
    expect(list.stdout).toMatch(/--type <value>\s+the content type/);
    expect(list.stdout).toMatch(/--draft\s+read drafts/);
    expect(list.stdout).toMatch(/--limit <n>\s+how many to show on this page/);
    const migrate = await ws.run(['content', 'migrate', '--help']);
    expect(migrate.stdout).toMatch(/--dry-run\s+show how many documents would change/);
    const media = await ws.run(['media', 'list', '--help']);
    expect(media.stdout).toMatch(/--uploaded-from <value>\s+only files uploaded on or after this day/);
    for (const help of [set, list, migrate, media])
      expect(help.stdout).not.toMatch(/^\s+--[a-z-]+(?: <\w+>)?\s+[a-zA-Z]+$/m);
  });

  it('set changes only the settings named: --preview-url keeps the image limit', async () => {
    const ws = await suite.workspace();
    expect((await ws.run(['settings', 'set', '--media-image-max-bytes', '4000', '--json'])).code).toBe(0);
    const preview = await ws.run(['settings', 'set', '--preview-url', 'https://example.com/{path}', '--json']);
    expect(preview.code, preview.stderr).toBe(0);
    expect(preview.json.data).toMatchObject({ mediaImageMaxBytes: 4000, previewUrl: 'https://example.com/{path}' });
    const stored = await suite.server().request('GET', '/api/v1/settings', { environment: null });
    expect(stored.body.data).toMatchObject({ mediaImageMaxBytes: 4000, previewUrl: 'https://example.com/{path}' });
    expect((await ws.run(['settings', 'set', '--preview-url', 'null', '--json'])).json.data).toMatchObject({
      mediaImageMaxBytes: 4000,
      previewUrl: null,
    });
  });

  it('sets the settings from flags, prints them for humans and as data with --json', async () => {
    const ws = await suite.workspace();
    const text = await ws.run([
      'settings',
      'set',
      '--media-image-max-bytes',
      '5000000',
      '--preview-url',
      'https://example.com/{path}?token={token}',
    ]);
    expect(text.code, text.stderr).toBe(0);
    expect(text.stdout).toContain('mediaImageMaxBytes: 5000000');
    expect(text.stdout).toContain('previewUrl: https://example.com/{path}?token={token}');
    const stored = await suite.server().request('GET', '/api/v1/settings', { environment: null });
    expect(stored.body.data).toMatchObject({ mediaImageMaxBytes: 5000000 });

    const json = await ws.run(['settings', 'set', '--media-image-max-bytes', 'null', '--json']);
    expect(json.code, json.stderr).toBe(0);
    expect(json.json).toMatchObject({ ok: true, data: { mediaImageMaxBytes: null } });
    const shown = await ws.run(['settings', 'show']);
    expect(shown.stdout).toContain('mediaImageMaxBytes: (not set)');
  });

  it('a value of the wrong type is a usage error (exit 2) and sends nothing', async () => {
    const ws = await suite.workspace();
    const run = await ws.run(['settings', 'set', '--media-image-max-bytes', 'lots', '--json']);
    expect(run.code).toBe(2);
    expect(run.json.error.message).toContain('--media-image-max-bytes must be a number or null');
  });

  it('preflight: a key without settings.manage is refused before the write, naming cms whoami', async () => {
    const reader = await suite.server().createKey({ scopes: ['content:read'] });
    const ws = await suite.workspace({ env: { CMS_API_KEY: reader } });
    const before = await suite.server().request('GET', '/api/v1/settings', { environment: null });
    const run = await ws.run(['settings', 'set', '--media-image-max-bytes', '123', '--json']);
    expect(run.code).toBe(1);
    expect(run.json.error).toMatchObject({ code: 'MISSING_CAPABILITY', details: { capability: 'settings.manage' } });
    expect(run.json.error.hint).toContain('cms whoami');
    const after = await suite.server().request('GET', '/api/v1/settings', { environment: null });
    expect(after.body.data).toEqual(before.body.data);
  });
});

describe('domain.content: cms content, cms media list', () => {
  it('lists documents of a type with the formatter, the page as data with --json', async () => {
    const ws = await suite.workspace();
    expect((await ws.run(['schema', 'sync', '--yes'])).code).toBe(0);
    await ws.write('content/pages/about.md', '---\ntitle: About us\n---\nHello.\n');
    expect((await ws.run(['push'])).code).toBe(0);
    const text = await ws.run(['content', 'list', '--type', 'page', '--draft']);
    expect(text.code, text.stderr).toBe(0);
    expect(text.stdout).toMatch(/about\s+\S*\s*draft\s+About us/);
    const json = await ws.run(['content', 'list', '--type', 'page', '--draft', '--json']);
    expect(json.json.data).toEqual([expect.objectContaining({ path: 'about', type: 'page' })]);
    const missing = await ws.run(['content', 'list', '--json']);
    expect(missing.code).toBe(2);
    expect(missing.json.error.message).toContain("required option '--type <value>' not specified");
  });

  it('preflight: content migrate refuses while the config schema is not the server one, naming cms schema sync', async () => {
    const ws = await suite.workspace();
    expect((await ws.run(['schema', 'sync', '--yes'])).code).toBe(0);
    await ws.write('content/pages/team.md', '---\ntitle: Team\n---\nUs.\n');
    expect((await ws.run(['push'])).code).toBe(0);
    await ws.write(
      'rename.json',
      JSON.stringify({ name: 'retitle', type: 'page', operations: [{ op: 'set', field: 'title', value: 'Ours' }] }),
    );
    // The config gains a field the server does not have yet.
    await ws.write(
      'cms.config.mjs',
      CONFIG_MJS.replace(
        "title: { kind: 'string', required: true },\n      },\n    },\n  ],",
        "title: { kind: 'string', required: true },\n        lead: { kind: 'string' },\n      },\n    },\n  ],",
      ),
    );
    const refused = await ws.run(['content', 'migrate', 'rename.json', '--json']);
    expect(refused.code).toBe(1);
    expect(refused.json.error.code).toBe('SCHEMA_OUT_OF_DATE');
    expect(refused.json.error.hint).toContain('cms schema sync');
    const text = await ws.run(['content', 'migrate', 'rename.json']);
    expect(text.stderr).toContain('`cms content migrate` was not sent');

    expect((await ws.run(['schema', 'sync', '--yes'])).code).toBe(0);
    const applied = await ws.run(['content', 'migrate', 'rename.json']);
    expect(applied.code, applied.stderr).toBe(0);
    expect(applied.stdout).toMatch(/retitle: \d+ of \d+ page document\(s\) changed/);
  });

  it('media list joins the built-in media group and prints its formatter line', async () => {
    const ws = await suite.workspace();
    const help = await ws.run(['media', '--help']);
    expect(help.stdout).toMatch(/upload <files\.\.\.>/);
    expect(help.stdout).toMatch(/list \[options\]|list\s+List the files/);
    const run = await ws.run(['media', 'list']);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toMatch(/No media files\.|B {2}/);
  });
});
