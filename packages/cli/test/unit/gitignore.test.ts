/** `cms init` keeps the .cms/ caches out of git, once, in the file's own line endings. */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ensureGitignore } from '../../src/init/gitignore.js';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'cms-gitignore-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('the .gitignore entry', () => {
  it('creates the file, ignoring the caches but not the manifests, and adds nothing twice', async () => {
    expect(await ensureGitignore(dir)).toBe(true);
    const text = await readFile(join(dir, '.gitignore'), 'utf8');
    expect(text.split('\n').slice(1)).toEqual(['.cms/*', '!.cms/*.*.json', '']);
    expect(await ensureGitignore(dir)).toBe(false);
    expect(await readFile(join(dir, '.gitignore'), 'utf8')).toBe(text);
  });

  it('appends to a file without a final newline, keeping CRLF, and leaves a file that names .cms alone', async () => {
    await writeFile(join(dir, '.gitignore'), 'node_modules\r\ndist');
    await ensureGitignore(dir);
    expect(await readFile(join(dir, '.gitignore'), 'utf8')).toMatch(
      /^node_modules\r\ndist\r\n\r\n# cms: [^\r\n]+\r\n\.cms\/\*\r\n!\.cms\/\*\.\*\.json\r\n$/,
    );
    await writeFile(join(dir, '.gitignore'), '/.cms/\n');
    expect(await ensureGitignore(dir)).toBe(false);
  });
});
