/**
 * The built `cms` binary on a real terminal (a pseudo-terminal from util-linux `script`): a
 * question answered "no" cancels (exit 3), Ctrl-C at a question interrupts (exit 130); neither
 * writes anything. Skipped where `script` is missing, since Node has no terminal of its own to offer.
 */
import { execFileSync, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startTestServer, type TestServer } from '../../../server/test/support/test-server.js';
import { BIN, buildCli, type Workspace, workspaceOn } from '../support/cli-harness.js';

vi.setConfig({ testTimeout: 180_000 });

const hasScript = (() => {
  try {
    execFileSync('script', ['--version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
})();

let server: TestServer;
let ws: Workspace;

beforeAll(async () => {
  if (!hasScript) return;
  buildCli();
  server = await startTestServer();
  ws = await workspaceOn(server);
  await ws.write('content/posts/hello.md', '---\ntitle: Hello\n---\nHi\n');
}, 120_000);

afterAll(async () => {
  await ws?.close();
  await server?.close();
});

/** Runs `cms <args>` on a terminal; when `question` shows up in its output, types `keys`. */
function onTerminal(args: string[], question: string, keys: string): Promise<{ code: number | null; output: string }> {
  const command = [process.execPath, BIN, ...args].map((part) => `'${part}'`).join(' ');
  const child = spawn('script', ['-qfec', command, '/dev/null'], { cwd: ws.dir, env: ws.env });
  let output = '';
  let typed = false;
  child.stdout.on('data', (chunk) => {
    output += chunk;
    if (!typed && output.includes(question)) {
      typed = true;
      child.stdin.write(keys);
    }
  });
  return new Promise((done) => child.on('close', (code) => done({ code, output })));
}

describe.skipIf(!hasScript)('questions on a terminal', () => {
  it('"no" cancels with exit 3 and writes nothing', async () => {
    const run = await onTerminal(['init'], '[y/N]', 'n\r');
    expect(run.code, run.output).toBe(3);
    expect(existsSync(`${ws.dir}/cms.config.ts`)).toBe(false);
  });

  it('Ctrl-C at the question interrupts with exit 130 and writes nothing', async () => {
    const run = await onTerminal(['init'], '[y/N]', '\u0003');
    expect(run.code, run.output).toBe(130);
    expect(run.output).toContain('Interrupted at the question: nothing was done.');
    expect(existsSync(`${ws.dir}/cms.config.ts`)).toBe(false);
  });
});
