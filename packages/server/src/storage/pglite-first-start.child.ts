/**
 * Child process of prepareFirstStart: creates the embedded data directory, applies the migrations,
 * closes the database and exits. Arguments: the data directory and shared_buffers in MiB. A failure
 * is one line on stderr and exit code 1; the parent puts that line in its own message.
 */
import { migrate } from './migrate.js';
import { openPgliteDb } from './pglite-db.js';

const [dataDir, sharedBuffersMb] = process.argv.slice(2);

try {
  if (!dataDir) throw new Error('usage: pglite-first-start.child.js <dataDir> <sharedBuffersMb>');
  const db = await openPgliteDb({ dataDir, sharedBuffersMb: Number(sharedBuffersMb) || undefined });
  await migrate(db);
  await db.close();
} catch (error: unknown) {
  const { message, errno } = (error ?? {}) as { message?: string; errno?: number };
  process.stderr.write(`${message || (errno === undefined ? String(error) : `file system error ${errno}`)}\n`);
  process.exit(1);
}
