/**
 * `npx cms` in the repository: `npm ci` links the workspace's `cms` at the root only when the root
 * package depends on `@cms/cli` and the bin's file exists at install time (before any build), so the
 * bin is a committed launcher that loads the built CLI. Without these, npx fetches an unrelated
 * public package named `cms`.
 */
import { execFile } from 'node:child_process';
import { copyFile, mkdir, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildCli } from '../support/cli-harness.js';

const run = promisify(execFile);
const repo = fileURLToPath(new URL('../../../../', import.meta.url));
const readJson = async (file: string) => JSON.parse(await readFile(join(repo, file), 'utf8'));

let cli: { version: string; bin: { cms: string } };
beforeAll(async () => {
  cli = await readJson('packages/cli/package.json');
}, 120_000);

describe('the cms bin at the repository root', () => {
  it('the root package and its lockfile depend on the cli workspace, whose bin the lockfile knows', async () => {
    const root = await readJson('package.json');
    expect(root.dependencies?.['@cms/cli']).toBe(cli.version);
    const lock = await readJson('package-lock.json');
    expect(lock.packages[''].dependencies?.['@cms/cli']).toBe(cli.version);
    expect(lock.packages['node_modules/@cms/cli']).toEqual({ resolved: 'packages/cli', link: true });
    // npm ci links what the lockfile says, so it must name the same file as the package.
    expect(`./${lock.packages['packages/cli'].bin.cms}`).toBe(cli.bin.cms);
  });

  it('the bin is a file of the repository, not a build output that is missing after npm ci', async () => {
    expect(cli.bin.cms).not.toMatch(/(^|\/)dist\//);
    const { stdout } = await run('git', ['ls-files', '--error-unmatch', join('packages/cli', cli.bin.cms)], {
      cwd: repo,
    });
    expect(stdout.trim()).toBe('packages/cli/bin/cms.js');
  });

  it('runs the built CLI: `cms --version` prints the package version', { timeout: 180_000 }, async () => {
    buildCli();
    const { stdout } = await run(process.execPath, [join(repo, 'packages/cli', cli.bin.cms), '--version']);
    expect(stdout.trim()).toBe(cli.version);
  });

  it('before the build, says to run it and exits 1', async () => {
    // The launcher alone, with no dist next to it: a checkout that was never built.
    const dir = await mkdtemp(join(tmpdir(), 'cms-bin-'));
    try {
      await mkdir(join(dir, 'bin'));
      await copyFile(join(repo, 'packages/cli', cli.bin.cms), join(dir, 'bin/cms.js'));
      const failure = await run(process.execPath, [join(dir, 'bin/cms.js'), '--version']).catch(
        (error: { code: number; stderr: string }) => error,
      );
      expect(failure).toMatchObject({ code: 1 });
      expect((failure as { stderr: string }).stderr).toBe(
        'The cms command is not built yet: run `npm run build` at the repository root.\n',
      );
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
