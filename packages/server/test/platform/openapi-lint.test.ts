import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../support/test-server.js';

/**
 * The served OpenAPI document passes Redocly's `recommended` rules with no error (the lint an API's
 * users and their tools run first). `@redocly/cli` is a pinned devDependency; the run reads the
 * document from a file, offline.
 */
const REDOCLY = createRequire(import.meta.url).resolve('@redocly/cli/bin/cli.js');

interface LintProblem {
  ruleId: string;
  severity: 'error' | 'warn';
  message: string;
  location?: { pointer?: string }[];
}

let t: TestServer;
let dir: string;
beforeAll(async () => {
  t = await startTestServer();
  dir = await mkdtemp(join(tmpdir(), 'cms-openapi-lint-'));
});
afterAll(async () => {
  await t.close();
  await rm(dir, { recursive: true, force: true });
});

describe('OpenAPI lint', () => {
  it("has no error under Redocly's recommended rules", async () => {
    const file = join(dir, 'openapi.json');
    await writeFile(file, (await t.request('GET', '/api/v1/openapi.json', { key: null })).text);
    const run = await promisify(execFile)(
      process.execPath,
      [REDOCLY, 'lint', file, '--extends=recommended', '--format=json'],
      {
        maxBuffer: 64 * 1024 * 1024,
        env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' },
      },
    ).catch((error: { stdout?: string; stderr?: string }) => ({
      stdout: error.stdout ?? '',
      stderr: error.stderr ?? '',
    }));
    const report = JSON.parse(run.stdout) as { totals: { errors: number }; problems: LintProblem[] };
    const errors = report.problems
      .filter((problem) => problem.severity === 'error')
      .map((problem) => `${problem.ruleId} ${problem.location?.[0]?.pointer ?? ''}: ${problem.message}`);
    expect(errors).toEqual([]);
    expect(report.totals.errors).toBe(0);
  }, 180_000);
});
