/**
 * The setup most CLI test files share: the binary built once, one real server for the file, and a
 * workspace per test with the CLI's settings pointing at it (admin key, project `default`,
 * environment `production`) and the harness's two-type config written.
 */
import { afterAll, beforeAll } from 'vitest';
import { startTestServer, type TestServer } from '../../../server/test/support/test-server.js';
import { buildCli, CONFIG_MJS, createWorkspace, type Workspace } from './cli-harness.js';

export interface CliSuite {
  server(): TestServer;
  /** A scratch folder with cms.config.mjs (CONFIG_MJS unless `config` is given); closed after the file. */
  workspace(options?: { config?: string; env?: Record<string, string> }): Promise<Workspace>;
  /** The server's schema hash (for API writes made as "another person"). */
  schemaHash(): Promise<string>;
}

/** Registers beforeAll/afterAll for a test file; call at the top level. */
export function cliSuite(): CliSuite {
  let server: TestServer | undefined;
  const open: Workspace[] = [];
  beforeAll(async () => {
    buildCli();
    server = await startTestServer();
  }, 120_000);
  afterAll(async () => {
    for (const ws of open) await ws.close();
    await server?.close();
  });
  const current = () => {
    if (!server) throw new Error('the suite has not started yet');
    return server;
  };
  return {
    server: current,
    async workspace(options = {}) {
      const ws = await createWorkspace({
        CMS_SERVER_URL: current().url,
        CMS_API_KEY: current().adminKey,
        CMS_PROJECT: 'default',
        CMS_ENVIRONMENT: 'production',
        ...options.env,
      });
      open.push(ws);
      await ws.write('cms.config.mjs', options.config ?? CONFIG_MJS);
      return ws;
    },
    async schemaHash() {
      const schema = await current().request('GET', '/api/v1/schema');
      return schema.body.data.schemaHash as string;
    },
  };
}
