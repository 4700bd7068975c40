import { fork } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { S3MediaStorage } from '../../src/media/s3-media-storage.js';
import { describeMediaStorageContract } from './media-storage.contract.js';

const BUCKET = 'cms-media-test';
const S3RVER_PROCESS = fileURLToPath(new URL('./s3rver-process.mjs', import.meta.url));

// A real S3 API on loopback: s3rver on a free port with its data in a temp dir, in a child
// process so the 50 MB memory check sees only the driver.
describeMediaStorageContract('s3 (s3rver)', async () => {
  const directory = await mkdtemp(path.join(tmpdir(), 'cms-media-s3-'));
  const server = fork(S3RVER_PROCESS, [directory, BUCKET], { stdio: ['ignore', 'ignore', 'inherit', 'ipc'] });
  const [message] = (await Promise.race([
    once(server, 'message'),
    once(server, 'exit').then(() => Promise.reject(new Error('s3rver exited before listening'))),
  ])) as [{ port: number }];
  const storage = new S3MediaStorage({
    endpoint: `http://127.0.0.1:${message.port}`,
    region: 'us-east-1',
    bucket: BUCKET,
    accessKeyId: 'S3RVER',
    secretAccessKey: 'S3RVER',
    forcePathStyle: true,
  });
  return {
    storage,
    close: async () => {
      await storage.close();
      const exited = once(server, 'exit');
      server.disconnect();
      await exited;
      await rm(directory, { recursive: true, force: true });
    },
  };
});
