/**
 * The SDK on Bun and Deno, each taken from the npm registry (`npx bun@…`, `npx deno@…`) and run on the
 * built entry against a real server. Downloads two runtimes, so it runs once per CI run
 * (`SDK_RUNTIMES=1`, `.ci/run`), not in every `npm test`.
 */
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type SdkHarness, startSdkServer } from './sdk-fixtures.js';

const SMOKE = fileURLToPath(new URL('./runtimes/smoke.mjs', import.meta.url));
const RUNTIMES = {
  bun: ['-y', 'bun@1.4.5', SMOKE],
  deno: ['-y', 'deno@2.9.6', 'run', '--allow-net', '--allow-env', '--allow-read', SMOKE],
} as const;

function run(
  args: readonly string[],
  env: Record<string, string>,
): Promise<{ code: number | null; out: string; err: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn('npx', args, { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (chunk) => {
      out += chunk;
    });
    child.stderr.on('data', (chunk) => {
      err += chunk;
    });
    child.once('error', reject);
    child.once('exit', (code) => resolve({ code, out, err }));
  });
}

describe.runIf(process.env.SDK_RUNTIMES === '1')('the SDK on other runtimes', { timeout: 180_000 }, () => {
  let harness: SdkHarness;
  beforeAll(async () => {
    harness = await startSdkServer();
  }, 120_000);
  afterAll(() => harness?.server.close());

  for (const [name, args] of Object.entries(RUNTIMES)) {
    it(`writes, reads across pages, gets typed errors and verifies a webhook on ${name}`, async () => {
      const result = await run(args, { CMS_SMOKE_URL: harness.server.url, CMS_SMOKE_KEY: harness.server.adminKey });
      expect(result.code, result.err).toBe(0);
      const line = result.out.trim().split('\n').pop() ?? '';
      expect(JSON.parse(line)).toEqual({
        runtime: name,
        titles: [`${name} 1 by Ada`, `${name} 2 by Ada`, `${name} 3 by Ada`],
        missing: { code: 'NOT_FOUND', status: 404, requestId: true },
        event: { test: 2432232314 },
      });
    });
  }
});
