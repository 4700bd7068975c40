import { mkdir, rm, writeFile } from 'node:fs/promises';
import net from 'node:net';
import path from 'node:path';
import type { TestServer } from '../support/test-server.js';

/** Creates an environment of the default project; fails the test unless it answers 201. */
export async function createEnvironment(t: TestServer, name: string): Promise<void> {
  const response = await t.request('POST', '/api/v1/environments', { environment: null, body: { name } });
  if (response.status !== 201) throw new Error(`create environment failed: ${response.status} ${response.text}`);
}

/** Deletes an environment of the default project; fails the test unless it answers 200. */
export async function deleteEnvironment(t: TestServer, name: string): Promise<void> {
  const response = await t.request('DELETE', `/api/v1/environments/${name}`, { environment: null });
  if (response.status !== 200) throw new Error(`delete environment failed: ${response.status} ${response.text}`);
}

/** An entry of `media_purge_queue`. */
export interface QueueEntry {
  storageKey: string;
  attempts: number;
  lastError: string | null;
  /** Milliseconds from now until the entry is due (negative: overdue). */
  dueInMs: number;
}

/** Every purge queue entry, by storage key. */
export async function queueEntries(t: Pick<TestServer, 'db'>): Promise<QueueEntry[]> {
  const result = await t.db.query<QueueEntry>(
    `select storage_key as "storageKey", attempts, last_error as "lastError",
       (extract(epoch from next_attempt_at - now()) * 1000)::float8 as "dueInMs"
     from media_purge_queue order by storage_key`,
  );
  return result.rows;
}

/** Makes every queued entry due now, as if its retry backoff had passed. */
export async function makeQueueDue(t: Pick<TestServer, 'db'>): Promise<void> {
  await t.db.query('update media_purge_queue set next_attempt_at = now()');
}

/** The storage key of an uploaded asset, read from its row. */
export async function storageKeyOf(t: TestServer, mediaId: string): Promise<string> {
  const result = await t.db.query<{ key: string }>('select storage_key as key from media where id = $1', [mediaId]);
  const key = result.rows[0]?.key;
  if (!key) throw new Error(`no media row ${mediaId}`);
  return key;
}

/**
 * Breaks one object of the fs driver: its file becomes a non-empty directory, so deleting it fails
 * (EISDIR) as a storage fault would. Returns the repair, which removes the directory.
 */
export async function breakFsObject(t: TestServer, storageKey: string): Promise<() => Promise<void>> {
  const file = path.join(t.dataDir, 'media', ...storageKey.split('/'));
  await rm(file);
  await mkdir(file);
  await writeFile(path.join(file, 'blocker'), 'x');
  return () => rm(file, { recursive: true, force: true });
}

/** A TCP proxy in front of a storage endpoint that a test can take down (connections refused and cut). */
export interface SwitchableProxy {
  url: string;
  setDown(down: boolean): void;
  close(): Promise<void>;
}

/** Starts a proxy on a free loopback port forwarding to `target` (`http://host:port`). */
export async function startSwitchableProxy(target: string): Promise<SwitchableProxy> {
  const upstream = new URL(target);
  const sockets = new Set<net.Socket>();
  let down = false;
  const server = net.createServer((client) => {
    if (down) {
      client.destroy();
      return;
    }
    const remote = net.connect(Number(upstream.port), upstream.hostname);
    for (const socket of [client, remote]) {
      sockets.add(socket);
      socket.on('close', () => sockets.delete(socket));
      socket.on('error', () => {
        client.destroy();
        remote.destroy();
      });
    }
    client.pipe(remote).pipe(client);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    setDown(value) {
      down = value;
      if (down) for (const socket of sockets) socket.destroy();
    },
    async close() {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
