/**
 * Start-up stays light: `cms --help` and `cms --version` load the command table, never a command's
 * code (sync engine, YAML, diff3, the config loader, core). Timings are in docs/benchmarks.md.
 */
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN, buildCli } from '../support/cli-harness.js';

const TRACER = fileURLToPath(new URL('../support/trace-loads.mjs', import.meta.url));
let dir: string;

beforeAll(async () => {
  buildCli();
  dir = await mkdtemp(join(tmpdir(), 'cms-startup-'));
}, 120_000);

afterAll(() => rm(dir, { recursive: true, force: true }));

/** Runs the binary with the load tracer; the module files it loaded, relative to node_modules or packages. */
async function loaded(args: string[]): Promise<{ code: number; stdout: string; files: string[] }> {
  const trace = join(dir, `trace-${Math.random().toString(36).slice(2)}.txt`);
  const { code, stdout } = await new Promise<{ code: number; stdout: string }>((done) => {
    execFile(
      process.execPath,
      ['--import', TRACER, BIN, ...args],
      { cwd: dir, env: { PATH: process.env.PATH ?? '', HOME: dir, CMS_TRACE_FILE: trace, NO_COLOR: '1' } },
      (error, out) => done({ code: error ? Number(error.code ?? 1) : 0, stdout: out }),
    );
  });
  const text = await readFile(trace, 'utf8').catch(() => '');
  const files = text
    .split('\n')
    .filter(Boolean)
    .map((url) => url.replace(/^.*\/(node_modules|packages)\//, ''));
  return { code, stdout, files };
}

/**
 * Modules' command-line surfaces come from core, light files only (no route schemas, no TypeBox); so does
 * the one error class (`@cms/core/errors`, with its table of codes), which the SDK's transport carries.
 */
const CORE_LIGHT = [
  'core/dist/cli-surface/',
  'core/dist/auth/scopes.js',
  'core/dist/wire/route-table.js',
  'core/dist/errors/cms-error.js',
  'core/dist/errors/error-codes.js',
];
const HEAVY = [/^yaml\//, /^node-diff3\//, /^diff\//, /^jiti\//, /^pluralize\//, /^typebox\//, /^core\//, /\/sync\//];
const heavy = (file: string) => !CORE_LIGHT.some((light) => file.startsWith(light)) && HEAVY.some((p) => p.test(file));

describe('start-up', () => {
  it('`cms --help` and `cms --version` load no command code', async () => {
    for (const args of [['--help'], ['--version'], ['push', '--help'], ['settings', '--help']]) {
      const run = await loaded(args);
      expect(run.code, args.join(' ')).toBe(0);
      expect(run.files).toContain('cli/dist/commands/command-table.js');
      expect(run.files.filter(heavy)).toEqual([]);
    }
  });

  it('a command that runs loads its code (the tracer sees it)', async () => {
    const run = await loaded(['status', '--json']);
    expect(run.code).toBe(2);
    expect(run.files).toContain('cli/dist/commands/sync.commands.js');
    expect(run.files.some((file) => file.startsWith('yaml/'))).toBe(true);
  });
});
