/** A real server on loopback with a schema synced from a config, and SDK clients for it. */
import { defineConfig, defineType, field, schemaSyncBody } from '@cms/core';
import { type ClientOptions, createClient } from '@cms/sdk';
import { startTestServer, type TestServer } from '../../server/test/support/test-server.js';

export const author = defineType({ name: 'author', fields: { name: field.string().required() } });
export const post = defineType({
  name: 'post',
  directory: 'posts',
  fields: {
    title: field.string().required().max(200),
    slug: field.string(),
    author: field.reference(author),
    tags: field.array(field.string()),
  },
});
export const config = defineConfig({ project: 'default', types: [post, author] });

export interface SdkHarness {
  server: TestServer;
  client(options?: Partial<ClientOptions>): ReturnType<typeof createClient<readonly [typeof post, typeof author]>>;
}

/** Starts a server and syncs the fixture schema through the SDK. */
export async function startSdkServer(env: Record<string, string> = {}): Promise<SdkHarness> {
  const server = await startTestServer({ env });
  const client = (options: Partial<ClientOptions> = {}) =>
    createClient({
      baseUrl: server.url,
      apiKey: server.adminKey,
      project: 'default',
      environment: 'production',
      schemaHash: 'fetch',
      types: config.types,
      ...options,
    });
  await client().schema.sync(schemaSyncBody(config, 'production'));
  return { server, client };
}

/** A 1x1 PNG. */
export const PNG = new Uint8Array([
  137, 80, 78, 71, 13, 10, 26, 10, 0, 0, 0, 13, 73, 72, 68, 82, 0, 0, 0, 1, 0, 0, 0, 1, 8, 6, 0, 0, 0, 31, 21, 196, 137,
  0, 0, 0, 13, 73, 68, 65, 84, 120, 156, 99, 0, 1, 0, 0, 5, 0, 1, 13, 10, 45, 180, 0, 0, 0, 0, 73, 69, 78, 68, 174, 66,
  96, 130,
]);
